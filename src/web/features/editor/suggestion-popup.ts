/**
 * Renders a suggestion list (a React component) in a floating box under the caret, for
 * @tiptap/suggestion's render() hooks; positioned with floating-ui, kept inside the window.
 */
import { computePosition, flip, offset, shift } from "@floating-ui/dom";
import { ReactRenderer, type Editor } from "@tiptap/react";
import type { SuggestionKeyDownProps, SuggestionProps } from "@tiptap/suggestion";
import type { ComponentType } from "react";
import type { SuggestionListHandle } from "./SuggestionList";

export function suggestionPopup<P extends object>(component: ComponentType<P>, propsOf: (p: SuggestionProps<unknown>) => P) {
  return () => {
    let renderer: ReactRenderer<SuggestionListHandle, P> | null = null;
    const place = (p: SuggestionProps<unknown>) => {
      const rect = p.clientRect?.();
      const el = renderer?.element as HTMLElement | undefined;
      if (!rect || !el) return;
      const virtual = { getBoundingClientRect: () => rect };
      void computePosition(virtual, el, { placement: "bottom-start", strategy: "fixed", middleware: [offset(6), flip(), shift({ padding: 8 })] }).then(({ x, y }) => {
        Object.assign(el.style, { left: `${x}px`, top: `${y}px` });
      });
    };
    return {
      onStart(p: SuggestionProps<unknown>) {
        renderer = new ReactRenderer(component, { props: propsOf(p), editor: p.editor as Editor });
        const el = renderer.element as HTMLElement;
        el.classList.add("suggestion-popup");
        Object.assign(el.style, { position: "fixed", zIndex: "70" });
        document.body.appendChild(el);
        place(p);
      },
      onUpdate(p: SuggestionProps<unknown>) {
        renderer?.updateProps(propsOf(p));
        place(p);
      },
      onKeyDown(p: SuggestionKeyDownProps) {
        if (p.event.key === "Escape") {
          renderer?.destroy();
          renderer?.element.remove();
          renderer = null;
          return true;
        }
        return renderer?.ref?.onKeyDown(p.event) ?? false;
      },
      onExit() {
        renderer?.destroy();
        renderer?.element.remove();
        renderer = null;
      },
    };
  };
}
