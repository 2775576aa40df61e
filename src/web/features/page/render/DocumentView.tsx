/**
 * A page's document in the reading view: TipTap JSON to React elements with TipTap's static
 * renderer (about 1 KB), not a read-only editor (150 KB more to download before a page shows).
 * Node types it does not know show their content; unknown marks, their text.
 */
import { renderJSONContentToReactElement } from "@tiptap/static-renderer/json/react";
import { Fragment, memo, useMemo, type ReactNode } from "react";
import type { DocJson } from "../../../api/client";
import { useLinkTargets } from "../links";
import { markMapping } from "./marks";
import { LinkTargetsContext } from "./page-link";
import { nodeMapping } from "./nodes";
import { taskIndex, TaskTicksContext } from "./task-ticks";
import { firstScreenOf } from "../../../../content/first-screen";
import "../../../../content/reading.css";

/**
 * A renderer numbers the elements it makes, in document order, from 0: a new one for each
 * drawing, so that the first screen's blocks (firstScreen) keep their keys when the rest joins
 * them. Another document is drawn anew (its own key), as before.
 */
const newRenderer = () =>
  renderJSONContentToReactElement({
    nodeMapping: nodeMapping as never,
    markMapping: markMapping as never,
    unhandledNode: ((p: { children?: ReactNode }) => <>{p.children}</>) as never,
    unhandledMark: ((p: { children?: ReactNode }) => <>{p.children}</>) as never,
  });
const drawnDocs = new WeakMap<object, number>();
let lastDocKey = 0;
const keyOf = (doc: DocJson) => drawnDocs.get(doc) ?? (drawnDocs.set(doc, ++lastDocKey), lastDocKey);

/**
 * `firstScreen`: draw only about the first screen of blocks (a cold view's first paint: the
 * rest follows in the next frame, as the same elements, so nothing already drawn is replaced).
 * `onTick`: task boxes tick (people who may edit the page); without it they are drawings.
 * `links`: show page links with their targets' current titles (asked of the server: needs the
 * app's query client). Without it they show as pages the reader cannot see, as the server's
 * HTML does by default.
 */
export const DocumentView = memo(function DocumentView({
  doc,
  className,
  onTick,
  links,
  firstScreen,
}: {
  doc: DocJson;
  className?: string;
  onTick?: (index: number, checked: boolean) => void;
  links?: boolean;
  firstScreen?: boolean;
}) {
  const ticks = useMemo(() => (onTick ? { indexOf: taskIndex(doc), tick: onTick } : null), [doc, onTick]);
  const shown = useMemo(() => (firstScreen ? firstScreenOf(doc) : doc), [doc, firstScreen]);
  // The document's blocks, each drawn as the document's node mapping draws them (`doc` is a fragment).
  const blocks = useMemo(() => {
    const render = newRenderer();
    return ((shown as { content?: unknown[] }).content ?? []).map((block) => render({ content: block as never, parent: doc as never }));
  }, [shown, doc]);
  const body = (
    <div className={`prose${className ? ` ${className}` : ""}`}>
      <Fragment key={keyOf(doc)}>{blocks}</Fragment>
    </div>
  );
  const drawn = ticks ? <TaskTicksContext.Provider value={ticks}>{body}</TaskTicksContext.Provider> : body;
  return links ? <WithLinkTargets doc={doc}>{drawn}</WithLinkTargets> : drawn;
});

function WithLinkTargets({ doc, children }: { doc: DocJson; children: ReactNode }) {
  const targets = useLinkTargets(doc);
  return <LinkTargetsContext.Provider value={{ targets }}>{children}</LinkTargetsContext.Provider>;
}
