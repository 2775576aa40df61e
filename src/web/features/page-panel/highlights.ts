/**
 * Draws the open inline comments' passages in the reading view with the CSS Custom Highlight
 * API: no element is added to the document React drew, so nothing fights its rendering. A click
 * inside a passage opens its thread. Browsers without the API still list every comment.
 */
import { useEffect, useRef, useState } from "react";
import "./highlights.css";
import { locate, parseAnchor } from "./anchors";
import { useComments } from "./queries";

/** TypeScript's DOM library types the registry without its Map methods. */
const registry = () => CSS.highlights as unknown as Map<string, Highlight>;
const supported = () => typeof CSS !== "undefined" && "highlights" in CSS && typeof Highlight !== "undefined";

/** Comment ids whose passage was found in the page as drawn now. */
export function useCommentHighlights(
  pageId: string,
  root: HTMLElement | null,
  activeId: string | null,
  onOpen: (id: string) => void,
  enabled: boolean,
): Set<string> | null {
  const comments = useComments(pageId, enabled);
  const [found, setFound] = useState<Set<string> | null>(null);
  // The thread a link opened (a notification's) shows its passage once, if it is off screen.
  const shownFor = useRef<string | null>(null);
  useEffect(() => {
    if (!root || !comments.data) return;
    const all = comments.data;
    let open: Array<[string, Range]> = [];
    // Drawn again whenever React redraws the page's text (a range on replaced nodes shows nothing).
    const draw = () => {
      const ranges = new Map<string, Range>();
      for (const c of all) {
        const anchor = c.parentCommentId ? null : parseAnchor(c.anchorJson);
        const range = anchor && locate(root, anchor, c.id);
        if (range) ranges.set(c.id, range);
      }
      setFound((before) =>
        before && before.size === ranges.size && [...ranges.keys()].every((id) => before.has(id)) ? before : new Set(ranges.keys()),
      );
      open = [...ranges].filter(([id]) => !all.find((c) => c.id === id)?.resolvedAt);
      if (!supported()) return;
      registry().set("cairn-comment", new Highlight(...open.filter(([id]) => id !== activeId).map(([, r]) => r)));
      const active = activeId ? open.find(([id]) => id === activeId)?.[1] : undefined;
      if (active && shownFor.current !== activeId) {
        shownFor.current = activeId;
        bringIntoView(active);
      }
      registry().set("cairn-comment-active", new Highlight(...(active ? [active] : [])));
    };
    draw();
    const observer = new MutationObserver(draw);
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    const onClick = (e: MouseEvent) => {
      if (window.getSelection()?.toString()) return;
      const at = document.caretRangeFromPoint?.(e.clientX, e.clientY);
      if (!at) return;
      const hit = open.find(([, r]) => r.isPointInRange(at.startContainer, at.startOffset));
      if (hit) onOpen(hit[0]);
    };
    root.addEventListener("click", onClick);
    return () => {
      observer.disconnect();
      root.removeEventListener("click", onClick);
      if (!supported()) return;
      registry().delete("cairn-comment");
      registry().delete("cairn-comment-active");
    };
  }, [root, comments.data, activeId, onOpen]);
  return found;
}

/**
 * Scrolls the window so a passage shows beside the panel: centred on wide screens; at phone
 * width, where the panel is a sheet over the lower 82% (panel.css), just below the top bar.
 */
function bringIntoView(range: Range): void {
  const box = range.getBoundingClientRect();
  const top = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--topbar-height")) || 0;
  const sheet = matchMedia("(max-width: 600px)").matches;
  const bottom = sheet ? window.innerHeight * 0.18 : window.innerHeight;
  if (box.top >= top && box.bottom <= bottom) return;
  const wanted = sheet ? top + 8 : (top + bottom - box.height) / 2;
  window.scrollBy({ top: box.top - wanted });
}
