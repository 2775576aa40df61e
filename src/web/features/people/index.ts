import { lazy } from "react";
// The people screen loads only when opened.
export const PeopleScreen = lazy(() => import("./PeopleScreen"));
export { seesPeople } from "./rights";
