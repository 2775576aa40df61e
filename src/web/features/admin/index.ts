import { lazy } from "react";
// The admin area loads only when opened; whether to offer it is known without loading it.
export const AdminScreen = lazy(() => import("./AdminScreen"));
export { seesAdmin } from "./sections";
