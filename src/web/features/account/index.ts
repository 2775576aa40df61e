import { lazy } from "react";
// The account screen loads only when opened.
export const AccountScreen = lazy(() => import("./AccountScreen"));
