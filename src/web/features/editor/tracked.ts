/**
 * Tracked changes in the editor: the `insertion` and `deletion` marks a change from outside
 * (the API, a restored version, an import) arrives as, grouped by change id, and accepting or
 * rejecting them. Accepting an insertion keeps its text, a deletion drops its text; rejecting
 * does the reverse. In a live room these are ordinary edits, so everyone sees the outcome.
 */
import type { Editor } from "@tiptap/core";
import type { Node as PmNode } from "@tiptap/pm/model";
import { resolveChanges } from "../../../content/tracked-resolve";

export interface TrackedChange {
  id: string;
  authorId: string | null;
  createdAt: string | null;
  /** Where its marked text is, in document order. */
  ranges: Array<{ from: number; to: number; kind: "insertion" | "deletion" }>;
  inserted: string;
  deleted: string;
}

export function listChanges(doc: PmNode): TrackedChange[] {
  const byId = new Map<string, TrackedChange>();
  doc.descendants((node, pos) => {
    if (!node.isInline) return;
    for (const mark of node.marks) {
      const kind = mark.type.name;
      if (kind !== "insertion" && kind !== "deletion") continue;
      const id = String(mark.attrs.id ?? `${kind}@${pos}`);
      let change = byId.get(id);
      if (!change)
        byId.set(
          id,
          (change = {
            id,
            authorId: mark.attrs.authorId ?? null,
            createdAt: mark.attrs.createdAt ?? null,
            ranges: [],
            inserted: "",
            deleted: "",
          }),
        );
      const last = change.ranges[change.ranges.length - 1];
      if (last && last.kind === kind && last.to === pos) last.to = pos + node.nodeSize;
      else change.ranges.push({ from: pos, to: pos + node.nodeSize, kind });
      const text = node.text ?? (node.type.name === "mention" ? `@${node.attrs.label ?? ""}` : " ");
      if (kind === "insertion") change.inserted += text;
      else change.deleted += text;
    }
  });
  return [...byId.values()];
}

/** The change the caret (or selection start) is in. */
export function changeAt(changes: TrackedChange[], pos: number): TrackedChange | null {
  return changes.find((c) => c.ranges.some((r) => pos >= r.from && pos <= r.to)) ?? null;
}

type Commands = Record<string, ((...args: unknown[]) => boolean) | undefined>;

/**
 * Settles one change (or all) as one edit of the open document (the schema's own commands when
 * it has them), so in a live room only the changed text moves and nobody's caret jumps.
 */
export function settle(editor: Editor, accept: boolean, change?: TrackedChange): void {
  const own = editor.commands as unknown as Commands;
  const name = change ? (accept ? "acceptChange" : "rejectChange") : accept ? "acceptAllChanges" : "rejectAllChanges";
  if (typeof own[name] === "function") {
    own[name]!(...(change ? [change.id] : []));
    return;
  }
  const tr = editor.state.tr;
  if (resolveChanges(tr, accept ? "accept" : "reject", change ? new Set([change.id]) : null)) editor.view.dispatch(tr);
}
