/** How each mark of the page schema is drawn in the reading view (as the editor draws it). */
import type { ReactNode } from "react";
import { isExternal, safeHref } from "./safe-url";

export interface MarkProps {
  mark: { type: string; attrs?: Record<string, unknown> };
  children?: ReactNode;
}

export const markMapping: Record<string, (p: MarkProps) => ReactNode> = {
  bold: (p) => <strong>{p.children}</strong>,
  italic: (p) => <em>{p.children}</em>,
  underline: (p) => <u>{p.children}</u>,
  strike: (p) => <s>{p.children}</s>,
  code: (p) => <code>{p.children}</code>,
  highlight: (p) => <mark>{p.children}</mark>,
  subscript: (p) => <sub>{p.children}</sub>,
  superscript: (p) => <sup>{p.children}</sup>,
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
  comment: (p) => (
    <span className="comment-anchor" data-comment-id={String(p.mark.attrs?.commentId ?? "")}>
      {p.children}
    </span>
  ),
  insertion: (p) => <ins>{p.children}</ins>,
  deletion: (p) => <del>{p.children}</del>,
};
