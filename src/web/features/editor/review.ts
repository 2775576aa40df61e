/**
 * "Review" in the reading view's "Unpublished changes by …" opens the editor with `?review`:
 * the caret goes to the first block that differs from the published version, scrolled into
 * view, so the unpublished changes are where the eye lands.
 */
import type { Editor } from "@tiptap/core";
import { parseDoc } from "../../api/client";

export function caretAtFirstChange(editor: Editor, publishedJson: string): boolean {
  let published;
  try {
    published = editor.schema.nodeFromJSON(parseDoc(publishedJson));
  } catch {
    return false;
  }
  const doc = editor.state.doc;
  let pos = 0;
  for (let i = 0; i < doc.childCount; i++) {
    const block = doc.child(i);
    if (i >= published.childCount || !block.eq(published.child(i))) {
      // Inside the block when it holds text, else just before it.
      editor
        .chain()
        .focus()
        .setTextSelection(block.isTextblock ? pos + block.nodeSize - 1 : pos)
        .scrollIntoView()
        .run();
      return true;
    }
    pos += block.nodeSize;
  }
  return false;
}

/** Whether the editor was opened from "Review" (the query is dropped once used). */
export function takeReviewRequest(): boolean {
  const url = new URL(window.location.href);
  if (!url.searchParams.has("review")) return false;
  url.searchParams.delete("review");
  history.replaceState(history.state, "", url.pathname + url.search + url.hash);
  return true;
}
