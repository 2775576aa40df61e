import { lazy } from "react";
// History and comparisons load only when opened (their diff code is not in the reading bundle).
export const HistoryScreen = lazy(() => import("./HistoryScreen"));
