import { lazy } from "react";
// The wizard is seen once per instance: it loads only when opened.
export const SetupWizard = lazy(() => import("./SetupWizard"));
export { SetupBanner } from "./SetupBanner";
