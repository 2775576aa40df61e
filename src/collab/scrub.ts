/**
 * Working copies stored before rooms checked what they accept (update-gate.ts) may hold content
 * the editor never shows: other top-level types, non-XML types inside the fragment, elements
 * nested deeper than a page may be, pieces Yjs kept pending. When such a copy is loaded, that
 * content is deleted (Yjs keeps a small tombstone of each piece, not its content) and the
 * pending pieces are dropped, so the next save stores the page's text alone. The document is
 * changed, never replaced: devices' copies still merge.
 */
import * as Y from "yjs";
import { allowedContent, MAX_NESTING } from "./update-gate";

/** Answers whether anything was removed (the room is then saved again). */
export function scrubStoredCopy(doc: Y.Doc, names: { fragment: string; meta: string }, origin: unknown): boolean {
  let removed = false;
  doc.transact((tr) => {
    const remove = (item: Y.Item) => {
      item.delete(tr);
      removed = true;
    };
    for (const [key, type] of doc.share) {
      if (key === names.fragment || key === names.meta) continue;
      for (const item of itemsOf(type)) remove(item);
    }
    const fragment = doc.share.get(names.fragment);
    // Every live piece of the fragment, without recursion (a hostile copy may nest deeply).
    const stack: Array<{ type: Y.AbstractType<any>; depth: number }> = fragment ? [{ type: fragment, depth: 0 }] : [];
    while (stack.length > 0) {
      const { type, depth } = stack.pop()!;
      for (const item of itemsOf(type)) {
        if (!allowedContent(item) || depth > MAX_NESTING) remove(item);
        else if (item.content instanceof Y.ContentType) stack.push({ type: item.content.type, depth: depth + 1 });
      }
    }
  }, origin);
  const store = doc.store as unknown as { pendingStructs: unknown; pendingDs: unknown };
  if (store.pendingStructs || store.pendingDs) {
    store.pendingStructs = null;
    store.pendingDs = null;
    removed = true;
  }
  return removed;
}

/** The live pieces of a type: its list and its keys. */
function itemsOf(type: Y.AbstractType<any>): Y.Item[] {
  const out: Y.Item[] = [];
  for (let item = type._start; item; item = item.right) if (!item.deleted) out.push(item);
  for (const item of type._map.values()) if (!item.deleted) out.push(item);
  return out;
}
