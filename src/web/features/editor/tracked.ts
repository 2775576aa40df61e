/**
 * Tracked changes in the editor: the `insertion` and `deletion` marks a change from outside
 * (the API, a restored version, an import) arrives as, grouped by change id, and accepting or
 * rejecting them. Accepting an insertion keeps its text, a deletion drops its text; rejecting
 * does the reverse. In a live room these are ordinary edits, so everyone sees the outcome.
 */
import type { Editor } from "@tiptap/core";
import type { Node as PmNode } from "@tiptap/pm/model";

export interface TrackedChange {
  id: string;
  authorId: string | null;
  createdAt: string | null;
  /** Where its marked text is, in document order. */
  ranges: Array<{ from: number; to: number; kind: "insertion" | "deletion" }>;
  inserted: string;
  deleted: string;
}

const KINDS = ["insertion", "deletion"] as const;

export function listChanges(doc: PmNode): TrackedChange[] {
  const byId = new Map<string, TrackedChange>();
  doc.descendants((node, pos) => {
    if (!node.isText) return;
    for (const mark of node.marks) {
      const kind = mark.type.name;
      if (kind !== "insertion" && kind !== "deletion") continue;
      const id = String(mark.attrs.id ?? `${kind}@${pos}`);
      let change = byId.get(id);
      if (!change) byId.set(id, (change = { id, authorId: mark.attrs.authorId ?? null, createdAt: mark.attrs.createdAt ?? null, ranges: [], inserted: "", deleted: "" }));
      const last = change.ranges[change.ranges.length - 1];
      if (last && last.kind === kind && last.to === pos) last.to = pos + node.nodeSize;
      else change.ranges.push({ from: pos, to: pos + node.nodeSize, kind });
      if (kind === "insertion") change.inserted += node.text;
      else change.deleted += node.text;
    }
  });
  return [...byId.values()];
}

/** The change the caret (or selection start) is in. */
export function changeAt(changes: TrackedChange[], pos: number): TrackedChange | null {
  return changes.find((c) => c.ranges.some((r) => pos >= r.from && pos <= r.to)) ?? null;
}

type Commands = Record<string, ((...args: unknown[]) => boolean) | undefined>;

/** Settles one change (or all): the schema's own commands when it has them. */
export function settle(editor: Editor, accept: boolean, change?: TrackedChange): void {
  const own = editor.commands as unknown as Commands;
  const name = change ? (accept ? "acceptChange" : "rejectChange") : accept ? "acceptAllChanges" : "rejectAllChanges";
  if (typeof own[name] === "function") {
    own[name]!(...(change ? [change.id] : []));
    return;
  }
  const changes = change ? [change] : listChanges(editor.state.doc);
  const tr = editor.state.tr;
  // From the end, so earlier positions stay valid.
  const ranges = changes.flatMap((c) => c.ranges).sort((a, b) => b.from - a.from);
  for (const r of ranges) {
    const dropText = (r.kind === "deletion") === accept;
    if (dropText) tr.delete(r.from, r.to);
    else for (const kind of KINDS) tr.removeMark(r.from, r.to, editor.schema.marks[kind]);
  }
  if (tr.docChanged) editor.view.dispatch(tr);
}
