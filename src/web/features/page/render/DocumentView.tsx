/**
 * A page's document in the reading view: TipTap JSON to React elements with TipTap's static
 * renderer (about 1 KB), not a read-only editor (150 KB more to download before a page shows).
 * Node types it does not know show their content; unknown marks, their text.
 */
import { renderJSONContentToReactElement } from "@tiptap/static-renderer/json/react";
import { memo, type ReactNode } from "react";
import type { DocJson } from "../../../api/client";
import { useLinkTargets } from "../links";
import { markMapping } from "./marks";
import { LinkTargetsContext } from "./page-link";
import { nodeMapping } from "./nodes";
import "../../../../content/reading.css";

const render = renderJSONContentToReactElement({
  nodeMapping: nodeMapping as never,
  markMapping: markMapping as never,
  unhandledNode: ((p: { children?: ReactNode }) => <>{p.children}</>) as never,
  unhandledMark: ((p: { children?: ReactNode }) => <>{p.children}</>) as never,
});

/**
 * `links`: show page links with their targets' current titles (asked of the server: needs the
 * app's query client). Without it they show as pages the reader cannot see, as the server's
 * HTML does by default.
 */
export const DocumentView = memo(function DocumentView({ doc, className, links }: { doc: DocJson; className?: string; links?: boolean }) {
  const body = <div className={`prose${className ? ` ${className}` : ""}`}>{render({ content: doc as never })}</div>;
  return links ? <WithLinkTargets doc={doc}>{body}</WithLinkTargets> : body;
});

function WithLinkTargets({ doc, children }: { doc: DocJson; children: ReactNode }) {
  const targets = useLinkTargets(doc);
  return <LinkTargetsContext.Provider value={{ targets }}>{children}</LinkTargetsContext.Provider>;
}
