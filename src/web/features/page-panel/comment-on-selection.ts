/**
 * How the editor's bubble toolbar starts a comment on the selected passage: the page screen
 * provides what to do with the anchor (open the comments panel with it as the draft), and the
 * toolbar shows its Comment button only where one is provided.
 */
import { createContext } from "react";
import type { TextAnchor } from "./anchors";

export const CommentOnSelection = createContext<((anchor: TextAnchor) => void) | null>(null);
