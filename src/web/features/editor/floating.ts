/**
 * Where the editor's floating menus may go, for floating-ui's collision handling (flip, shift,
 * hide). The window scrolls, but not all of it shows the page: the sticky top bar covers its top
 * and, on a wide screen, the fixed sidebar its left. A menu placed against the bare viewport
 * would sit under the top bar or over the sidebar; against this rectangle it flips or slides
 * into the part of the window where the page itself is seen.
 */
import type { Rect } from "@floating-ui/dom";
import type { Editor } from "@tiptap/core";

/** Space kept between a menu and the edges of its area, in pixels. */
export const EDGE = 8;

function shown(el: Element | null): el is HTMLElement {
  return !!el && getComputedStyle(el).display !== "none" && getComputedStyle(el).position === "fixed";
}

/** The visible part of the window that shows the page (client coordinates). */
export function editorBoundary(): Rect {
  const topbar = document.querySelector(".topbar");
  const sidebar = document.querySelector(".sidebar");
  const top = Math.max(0, topbar?.getBoundingClientRect().bottom ?? 0);
  const left = shown(sidebar) ? Math.max(0, sidebar.getBoundingClientRect().right) : 0;
  const width = document.documentElement.clientWidth;
  const height = window.innerHeight;
  return { x: left, y: top, width: Math.max(0, width - left), height: Math.max(0, height - top) };
}

/** floating-ui options (evaluated at each placement, so a resized window or toggled sidebar counts). */
export const withinEditor = () => ({ boundary: editorBoundary(), padding: EDGE });

/** A virtual reference for floating-ui: the box of the nearest `selector` around the caret. */
export function blockAroundCaret(editor: Editor, selector: string) {
  return () => {
    if (editor.isDestroyed) return null;
    const { node } = editor.view.domAtPos(editor.state.selection.from);
    const el = (node instanceof Element ? node : node.parentElement)?.closest(selector);
    if (!el || !editor.view.dom.contains(el)) return null;
    return { getBoundingClientRect: () => el.getBoundingClientRect(), getClientRects: () => el.getClientRects(), contextElement: el };
  };
}

type Placement = "top" | "top-start" | "top-end" | "bottom" | "bottom-start" | "bottom-end";

/**
 * Options for TipTap's BubbleMenu (which hands them to floating-ui): flip to the other side when
 * this one has no room, slide along to stay in the page's part of the window (`crossAxis`: a
 * menu anchored to a block taller than the window stays reachable), hide when what it belongs
 * to has scrolled out of view. TipTap runs offset after flip, so flip's padding counts the gap.
 */
export function menuOptions(placement: Placement, fallbackPlacements: Placement[], gap = 6) {
  return {
    placement,
    strategy: "absolute" as const,
    offset: gap,
    flip: () => ({ ...withinEditor(), padding: EDGE + gap, fallbackPlacements, fallbackStrategy: "bestFit" as const }),
    shift: () => ({ ...withinEditor(), crossAxis: true }),
    hide: () => ({ boundary: editorBoundary(), strategy: "referenceHidden" as const }),
  };
}
