/**
 * Two versions compared (doc-diff.ts), drawn as the page is read: tables as tables, lists as
 * lists, code as code. Changed blocks are edged and tinted (removed and "before" in the
 * deletion colour, added and "after" in the insertion colour); the words that went out are
 * struck through, those that came in underlined, so the difference never rests on colour alone.
 */
import { renderJSONContentToReactElement } from "@tiptap/static-renderer/json/react";
import { cloneElement, isValidElement, memo, useMemo, type ReactElement, type ReactNode } from "react";
import { parseDoc } from "../../api/client";
import { compareVersions } from "./doc-diff";
import { markMapping } from "../page/render/marks";
import { nodeMapping, type NodeProps } from "../page/render/nodes";
import "../../../content/reading.css";

type Mapping = (p: NodeProps) => ReactNode;

/** Each node's drawing, with the comparison's mark (`attrs.diff`) as a class on it. */
function marked(draw: Mapping): Mapping {
  return (p) => {
    const el = draw(p);
    const diff = p.node.attrs?.diff;
    if (typeof diff !== "string" || !isValidElement(el)) return el;
    const e = el as ReactElement<{ className?: string; diff?: string }>;
    if (typeof e.type !== "string") return cloneElement(e, { diff });
    return cloneElement(e, { className: [e.props.className, `cmp-${diff}`].filter(Boolean).join(" ") });
  };
}

const LINE = { added: "+", removed: "−" } as const;

const mapping: Record<string, Mapping> = {
  ...Object.fromEntries(Object.entries(nodeMapping).map(([type, draw]) => [type, marked(draw)])),
  // A line of a compared code block: its own row, with a +/− gutter for added and removed lines.
  codeLine: (p) => {
    const diff = p.node.attrs?.diff as keyof typeof LINE | undefined;
    return (
      <span className={`code-line${diff ? ` cmp-line-${diff}` : ""}`}>
        <span className="code-gutter" aria-hidden="true">
          {diff ? LINE[diff] : " "}
        </span>
        {p.children}
      </span>
    );
  },
};

const render = renderJSONContentToReactElement({
  nodeMapping: mapping as never,
  markMapping: markMapping as never,
  unhandledNode: ((p: { children?: ReactNode }) => <>{p.children}</>) as never,
  unhandledMark: ((p: { children?: ReactNode }) => <>{p.children}</>) as never,
});

/** `older` and `newer`: the two versions' stored documents (contentJson). */
export const Comparison = memo(function Comparison({ older, newer }: { older: string; newer: string }) {
  const { doc, changed } = useMemo(() => compareVersions(parseDoc(older), parseDoc(newer)), [older, newer]);
  if (!changed) return <p className="muted">These two versions have the same content.</p>;
  return <div className="prose comparison">{render({ content: doc as never })}</div>;
});
