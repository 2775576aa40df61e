import { lazy } from "react";
// The settings screens load only when opened (nothing of them is in the reading bundle).
export const SpaceSettingsScreen = lazy(() => import("./SpaceSettingsScreen"));
