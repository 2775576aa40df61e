import { lazy } from "react";

/** The panel's sections are a lazy chunk: a page is read without them. */
const loadPanel = () => import("./PagePanel");
export const PagePanel = lazy(loadPanel);
/** Fetches the panel's chunk ahead of its first use (when the browser is idle after a page). */
export const preloadPanel = () => void loadPanel();
export { PanelPlaceholder } from "./PanelPlaceholder";
export { PanelButtons } from "./PanelButtons";
export { usePanel, type PanelKind } from "./usePanel";
export { useCommentHighlights } from "./highlights";
export { SelectionComment } from "./SelectionComment";
