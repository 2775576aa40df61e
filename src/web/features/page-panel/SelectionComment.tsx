/**
 * A "Comment" button beside a passage selected in the reading view: it opens the comments panel
 * with a new comment on that passage.
 */
import { useEffect, useState } from "react";
import { MessageSquare } from "../../ui/icons";
import { anchorOfSelection, type TextAnchor } from "./anchors";

export function SelectionComment({ root, onComment }: { root: HTMLElement | null; onComment(anchor: TextAnchor): void }) {
  const [at, setAt] = useState<{ x: number; y: number; anchor: TextAnchor } | null>(null);
  useEffect(() => {
    if (!root) return;
    const update = () => {
      const sel = window.getSelection();
      const range = sel && sel.rangeCount ? sel.getRangeAt(0) : null;
      const anchor = range ? anchorOfSelection(root, range) : null;
      if (!range || !anchor) return setAt(null);
      const box = range.getBoundingClientRect();
      setAt({ x: box.left + box.width / 2 + window.scrollX, y: box.top + window.scrollY, anchor });
    };
    document.addEventListener("selectionchange", update);
    return () => document.removeEventListener("selectionchange", update);
  }, [root]);
  if (!at) return null;
  return (
    <button
      type="button"
      className="btn btn-primary btn-sm selection-comment"
      style={{ left: at.x, top: at.y }}
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => {
        onComment(at.anchor);
        setAt(null);
      }}
    >
      <MessageSquare size={14} aria-hidden="true" /> Comment
    </button>
  );
}
