/**
 * How each mark of the page schema is drawn in the reading view (as the editor draws it): its
 * element, attributes and class from the table the server's HTML renderer reads too
 * (src/content/elements.ts); a link, whose address is checked first, here.
 */
import type { ReactNode } from "react";
import { MARK_ELEMENTS } from "../../../../content/elements";
import { drawElement } from "./nodes";
import { isExternal, safeHref } from "./safe-url";

export interface MarkProps {
  mark: { type: string; attrs?: Record<string, unknown> };
  children?: ReactNode;
}

export const markMapping: Record<string, (p: MarkProps) => ReactNode> = {
  ...Object.fromEntries(
    Object.entries(MARK_ELEMENTS).map(([type, spec]) => [type, (p: MarkProps) => drawElement(spec(p.mark.attrs ?? {}), p.children)]),
  ),
  link: (p) => {
    const href = safeHref(p.mark.attrs?.href);
    // A refused URL keeps its text, not its link.
    if (!href) return <>{p.children}</>;
    return isExternal(href) ? (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow">
        {p.children}
      </a>
    ) : (
      <a href={href}>{p.children}</a>
    );
  },
};
