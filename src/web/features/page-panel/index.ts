import { lazy } from "react";

/** The panel's sections are a lazy chunk: a page is read without them. */
export const PagePanel = lazy(() => import("./PagePanel"));
export { PanelButtons } from "./PanelButtons";
export { usePanel, type PanelKind } from "./usePanel";
export { useCommentHighlights } from "./highlights";
export { SelectionComment } from "./SelectionComment";
