import { lazy } from "react";

// The editor (TipTap and its menus) is its own chunk, fetched on the first edit.
const loadEditor = () => import("../editor/EditSession");
export const EditSession = lazy(loadEditor);
/** Starts downloading the editor before it is needed (Edit hovered or focused). */
export const preloadEditor = () => void loadEditor();
