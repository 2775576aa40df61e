/**
 * A page's document in the reading view: TipTap JSON to React elements with TipTap's static
 * renderer (about 1 KB), not a read-only editor (150 KB more to download before a page shows).
 * Node types it does not know show their content; unknown marks, their text.
 */
import { renderJSONContentToReactElement } from "@tiptap/static-renderer/json/react";
import { memo, useMemo, type ReactNode } from "react";
import type { DocJson } from "../../../api/client";
import { useLinkTargets } from "../links";
import { markMapping } from "./marks";
import { LinkTargetsContext } from "./page-link";
import { nodeMapping } from "./nodes";
import { taskIndex, TaskTicksContext } from "./task-ticks";
import "../../../../content/reading.css";

const render = renderJSONContentToReactElement({
  nodeMapping: nodeMapping as never,
  markMapping: markMapping as never,
  unhandledNode: ((p: { children?: ReactNode }) => <>{p.children}</>) as never,
  unhandledMark: ((p: { children?: ReactNode }) => <>{p.children}</>) as never,
});

/**
 * `onTick`: task boxes tick (people who may edit the page); without it they are drawings.
 * `links`: show page links with their targets' current titles (asked of the server: needs the
 * app's query client). Without it they show as pages the reader cannot see, as the server's
 * HTML does by default.
 */
export const DocumentView = memo(function DocumentView({ doc, className, onTick, links }: { doc: DocJson; className?: string; onTick?: (index: number, checked: boolean) => void; links?: boolean }) {
  const ticks = useMemo(() => (onTick ? { indexOf: taskIndex(doc), tick: onTick } : null), [doc, onTick]);
  const body = <div className={`prose${className ? ` ${className}` : ""}`}>{render({ content: doc as never })}</div>;
  const drawn = ticks ? <TaskTicksContext.Provider value={ticks}>{body}</TaskTicksContext.Provider> : body;
  return links ? <WithLinkTargets doc={doc}>{drawn}</WithLinkTargets> : drawn;
});

function WithLinkTargets({ doc, children }: { doc: DocJson; children: ReactNode }) {
  const targets = useLinkTargets(doc);
  return <LinkTargetsContext.Provider value={{ targets }}>{children}</LinkTargetsContext.Provider>;
}
