/**
 * Accepting and rejecting tracked changes (the `insertion` and `deletion` marks), as ProseMirror
 * steps on a Transform. The editor commands run them on the live transaction (so undo works) and
 * the pure JSON functions of tracked-changes.ts run them on a Transform of their own: one
 * implementation for both.
 *
 * Accepting a change drops its deletion-marked content and the insertion mark from its inserted
 * content; rejecting does the reverse. A block whose text is all going away goes with it (a
 * whole paragraph or list item that was deleted leaves no empty husk), unless its parent would
 * then be invalid (a details summary, the last block of a cell), in which case it stays, emptied;
 * so does a table cell (a row goes whole or not at all).
 */
import { Fragment, type Mark, type MarkType, type Node as PMNode } from "@tiptap/pm/model";
import type { Transform } from "@tiptap/pm/transform";

export type Resolution = "accept" | "reject";

/** Which changes to resolve: all of them, or those whose id is listed. */
export type ChangeFilter = ReadonlySet<string> | null;

export const TRACKED_MARKS = ["insertion", "deletion"] as const;

export function isTrackedMark(mark: Mark): boolean {
  return mark.type.name === "insertion" || mark.type.name === "deletion";
}

function selected(mark: Mark | undefined, filter: ChangeFilter): mark is Mark {
  return mark !== undefined && (filter === null || filter.has(String(mark.attrs.id)));
}

function markOf(node: PMNode, name: "insertion" | "deletion"): Mark | undefined {
  return node.marks.find((m) => m.type.name === name);
}

/** What resolving does to one inline node: it goes, or loses a mark, or stays as it is. */
function fate(node: PMNode, how: Resolution, filter: ChangeFilter): { gone: boolean; unmark?: Mark } {
  const goes = markOf(node, how === "accept" ? "deletion" : "insertion");
  if (selected(goes, filter)) return { gone: true };
  const stays = markOf(node, how === "accept" ? "insertion" : "deletion");
  return selected(stays, filter) ? { gone: false, unmark: stays } : { gone: false };
}

/** Inline nodes that could carry a tracked mark (code block text cannot: its schema allows no marks). */
function markable(parent: PMNode, type: MarkType): boolean {
  return parent.inlineContent && parent.type.allowsMarkType(type);
}

/** True when the node holds some markable inline content and all of it goes. */
export function whollyGone(node: PMNode, how: Resolution, filter: ChangeFilter): boolean {
  const type = node.type.schema.marks.insertion;
  let some = false;
  let all = true;
  node.descendants((child, _pos, parent) => {
    if (!all) return false;
    if (!child.isInline) return true;
    if (!parent || !markable(parent, type)) return false;
    some = true;
    if (!fate(child, how, filter).gone) all = false;
    return false;
  });
  return some && all;
}

interface Plan {
  deletes: [number, number][];
  unmarks: [number, number, Mark][];
}

/** Collects the steps for `node`, whose content starts at `start` in the document. */
function plan(node: PMNode, start: number, how: Resolution, filter: ChangeFilter, out: Plan): void {
  if (node.inlineContent) {
    node.forEach((child, offset) => {
      const { gone, unmark } = fate(child, how, filter);
      const from = start + offset;
      if (gone) out.deletes.push([from, from + child.nodeSize]);
      else if (unmark) out.unmarks.push([from, from + child.nodeSize, unmark]);
    });
    return;
  }
  const goes: boolean[] = [];
  const kept: PMNode[] = [];
  node.forEach((child) => {
    const gone = whollyGone(child, how, filter);
    goes.push(gone);
    if (!gone) kept.push(child);
  });
  // Dropping whole blocks must leave the parent valid (a details keeps its summary, a doc a
  // block), and a table row keeps its cells, emptied: a row goes whole or not at all.
  const dropWhole = goes.some(Boolean) && node.type.spec.tableRole !== "row" && node.type.validContent(Fragment.fromArray(kept));
  node.forEach((child, offset, index) => {
    const from = start + offset;
    if (goes[index] && dropWhole) out.deletes.push([from, from + child.nodeSize]);
    else if (!child.isLeaf) plan(child, from + 1, how, filter, out);
  });
}

/**
 * Adds to `tr` the steps that accept or reject the selected changes. Returns whether anything
 * changed. Marks are removed first (positions do not move), then content is deleted from the end
 * backwards so earlier positions stay valid.
 */
export function resolveChanges(tr: Transform, how: Resolution, filter: ChangeFilter = null): boolean {
  const out: Plan = { deletes: [], unmarks: [] };
  plan(tr.doc, 0, how, filter, out);
  for (const [from, to, mark] of out.unmarks) tr.removeMark(from, to, mark);
  const merged: [number, number][] = [];
  for (const [from, to] of out.deletes) {
    const last = merged[merged.length - 1];
    if (last && last[1] === from) last[1] = to;
    else merged.push([from, to]);
  }
  for (const [from, to] of merged.reverse()) tr.delete(from, to);
  return out.unmarks.length > 0 || merged.length > 0;
}

/** Whether the document holds any of the selected changes (what resolving would act on). */
export function holdsChanges(doc: PMNode, filter: ChangeFilter = null): boolean {
  let found = false;
  doc.descendants((node) => {
    if (node.marks.some((m) => isTrackedMark(m) && selected(m, filter))) found = true;
    return !found;
  });
  return found;
}
