/**
 * Tracked changes on page documents (JSON), for the server and the browser alike: no DOM, no
 * framework. `trackChanges` shows an incoming version against the open one; the rest review the
 * result. A published version never holds tracked marks: the server stores
 * `stripTrackedChanges(doc)` (= acceptAll).
 *
 * The guarantees (tracked-changes.test.ts): acceptAll(trackChanges(w, i)) is i, and
 * rejectAll(trackChanges(w, i)) is rejectAll(w) — w itself when it held no pending changes —
 * for every difference the schema can mark: text and inline atoms (mentions, hard breaks) with
 * their formatting, and whole blocks that hold text. What it cannot mark follows the incoming
 * version untracked (see tracked-diff.ts). All results are normalised (adjacent text with the
 * same marks joined, attribute defaults filled in), as the server stores documents.
 */
import type { JSONContent } from "@tiptap/core";
import type { Node as PMNode } from "@tiptap/pm/model";
import { Transform } from "@tiptap/pm/transform";
import { contentSchema } from "./schema";
import { mergeNode } from "./tracked-diff";
import { type ChangeMeta, numberHunks } from "./tracked-hunks";
import { type ChangeFilter, type Resolution, resolveChanges } from "./tracked-resolve";

export type { ChangeMeta } from "./tracked-hunks";

export interface TrackedChange {
  id: string;
  kind: "insertion" | "deletion";
  /** The changed text; pieces in different blocks are joined by a line break. */
  text: string;
  authorId: string | null;
  createdAt: string | null;
}

function resolved(doc: PMNode, how: Resolution, filter: ChangeFilter): PMNode {
  const tr = new Transform(doc);
  resolveChanges(tr, how, filter);
  return tr.doc;
}

const load = (doc: JSONContent) => contentSchema.nodeFromJSON(doc);

/** The working copy with the incoming version's differences marked as tracked changes. */
export function trackChanges(working: JSONContent, incoming: JSONContent, meta: ChangeMeta): JSONContent {
  // Tracked marks in the incoming version are not reviewable changes of its author: its accepted
  // text is the new truth.
  const target = resolved(load(incoming), "accept", null);
  const merged = mergeNode(load(working), target, { schema: contentSchema, meta, count: 0 }, true);
  return merged ? numberHunks(merged.toJSON(), meta) : target.toJSON();
}

export function acceptAll(doc: JSONContent): JSONContent {
  return resolved(load(doc), "accept", null).toJSON();
}

export function rejectAll(doc: JSONContent): JSONContent {
  return resolved(load(doc), "reject", null).toJSON();
}

export function acceptChange(doc: JSONContent, id: string): JSONContent {
  return resolved(load(doc), "accept", new Set([id])).toJSON();
}

export function rejectChange(doc: JSONContent, id: string): JSONContent {
  return resolved(load(doc), "reject", new Set([id])).toJSON();
}

/** What the server stores as a published version: every pending change accepted. */
export const stripTrackedChanges = acceptAll;

function leafText(node: PMNode): string {
  if (node.isText) return node.text!;
  if (node.type.name === "mention") return `@${node.attrs.label ?? node.attrs.id}`;
  if (node.type.name === "hardBreak") return "\n";
  // The change list names no title: it would be this page's words for another page's name.
  if (node.type.name === "pageLink") return "[page link]";
  return "";
}

/** The changes of a document, one entry per id and kind, in the order they first appear. */
export function listChanges(doc: JSONContent): TrackedChange[] {
  const found = new Map<string, TrackedChange & { block: PMNode | null }>();
  load(doc).descendants((node, _pos, parent) => {
    for (const mark of node.marks) {
      const kind = mark.type.name;
      if (kind !== "insertion" && kind !== "deletion") continue;
      const id = String(mark.attrs.id);
      const entry = found.get(`${kind} ${id}`);
      if (!entry) {
        const { authorId, createdAt } = mark.attrs as { authorId: string | null; createdAt: string | null };
        found.set(`${kind} ${id}`, { id, kind, text: leafText(node), authorId, createdAt, block: parent });
      } else {
        entry.text += (entry.block === parent ? "" : "\n") + leafText(node);
        entry.block = parent;
      }
    }
    return true;
  });
  return [...found.values()].map(({ block: _block, ...change }) => change);
}

export function hasTrackedChanges(doc: JSONContent): boolean {
  let found = false;
  load(doc).descendants((node) => {
    if (node.marks.some((m) => m.type.name === "insertion" || m.type.name === "deletion")) found = true;
    return !found;
  });
  return found;
}
