/**
 * Renders a suggestion list (a React component) in a floating box under the caret, for
 * @tiptap/suggestion's render() hooks. floating-ui places it within the page's part of the window
 * (floating.ts): above the caret when there is no room below (the last line of a long page),
 * shorter when there is room on neither side. It is placed again whenever the list changes
 * size (React draws it after onStart, so its first measure is empty), the window resizes or
 * anything scrolls.
 */
import { autoUpdate, computePosition, flip, offset, shift, size } from "@floating-ui/dom";
import { ReactRenderer, type Editor } from "@tiptap/react";
import type { SuggestionKeyDownProps, SuggestionProps } from "@tiptap/suggestion";
import type { ComponentType } from "react";
import { withinEditor } from "./floating";
import type { SuggestionListHandle } from "./SuggestionList";

/** The list's tallest (editor.css's .suggestions max-height), and its shortest before flipping wins. */
const MAX_HEIGHT = 320;
const MIN_HEIGHT = 120;

export function suggestionPopup<P extends object>(component: ComponentType<P>, propsOf: (p: SuggestionProps<unknown>) => P) {
  return () => {
    let renderer: ReactRenderer<SuggestionListHandle, P> | null = null;
    let stopUpdates: (() => void) | null = null;
    let clientRect: SuggestionProps<unknown>["clientRect"] = null;
    // The caret's box as it is now: the suggestion keeps it fresh as one types and scrolls.
    const caret = { getBoundingClientRect: () => clientRect?.() ?? new DOMRect(), contextElement: undefined as Element | undefined };
    const place = () => {
      const el = renderer?.element as HTMLElement | undefined;
      if (!el || !clientRect?.()) return;
      void computePosition(caret, el, {
        placement: "bottom-start",
        strategy: "fixed",
        middleware: [
          offset(6),
          flip(() => ({ ...withinEditor(), fallbackPlacements: ["top-start"], fallbackStrategy: "bestFit" })),
          shift(() => ({ ...withinEditor(), crossAxis: true })),
          size(() => ({
            ...withinEditor(),
            apply({ availableHeight, elements }) {
              const list = elements.floating.firstElementChild as HTMLElement | null;
              if (list) list.style.maxHeight = `${Math.max(MIN_HEIGHT, Math.min(MAX_HEIGHT, Math.floor(availableHeight)))}px`;
            },
          })),
        ],
      }).then(({ x, y, placement }) => {
        Object.assign(el.style, { left: `${x}px`, top: `${y}px`, visibility: "visible" });
        el.dataset.placement = placement;
      });
    };
    const close = () => {
      stopUpdates?.();
      stopUpdates = null;
      renderer?.destroy();
      renderer?.element.remove();
      renderer = null;
    };
    return {
      onStart(p: SuggestionProps<unknown>) {
        clientRect = p.clientRect;
        caret.contextElement = p.editor.view.dom;
        renderer = new ReactRenderer(component, { props: propsOf(p), editor: p.editor as Editor });
        const el = renderer.element as HTMLElement;
        el.classList.add("suggestion-popup");
        Object.assign(el.style, { position: "fixed", zIndex: "70", left: "0px", top: "0px", visibility: "hidden" });
        document.body.appendChild(el);
        stopUpdates = autoUpdate(caret, el, place, { elementResize: true, ancestorScroll: true, ancestorResize: true });
      },
      onUpdate(p: SuggestionProps<unknown>) {
        clientRect = p.clientRect;
        renderer?.updateProps(propsOf(p));
        place();
      },
      onKeyDown(p: SuggestionKeyDownProps) {
        if (p.event.key === "Escape") {
          close();
          return true;
        }
        return renderer?.ref?.onKeyDown(p.event) ?? false;
      },
      onExit: close,
    };
  };
}
