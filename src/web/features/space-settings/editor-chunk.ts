import { lazy } from "react";

// The editor (TipTap and its menus) is its own chunk, fetched when a template's content is
// first edited; the settings screens themselves carry none of it.
export const DocumentEditor = lazy(() => import("../editor/DocumentEditor"));
