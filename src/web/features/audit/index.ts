import { lazy } from "react";
// The audit screen loads only when opened.
export const AuditScreen = lazy(() => import("./AuditScreen"));
