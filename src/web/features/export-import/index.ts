// Export and import in the web UI. Only the page menu's entries and the Import button load with
// the app; the settings section, the import dialog and all their code are fetched when opened.
import { lazy } from "react";

export { PageExportItems } from "./PageExportItems";
export { ImportSpaceButton } from "./ImportSpaceButton";
export const SpaceExportSection = lazy(() => import("./SpaceExportSection"));
export const SpaceExportScreen = lazy(() => import("./SpaceExportScreen"));
