/**
 * What a room accepts from a client (docs/decisions.md, "What a collaboration room accepts"):
 * changes to the page's text, and nothing else. An update is read before it is applied, and
 * refused whole when any of its pieces would land outside the `default` XML fragment TipTap
 * edits (another top-level type, a Y.Map or Y.Array inside the fragment, the server's own
 * map of room facts), when it builds on content the room does not have (Yjs would keep such a piece
 * pending, in memory and in every stored copy, until the missing content came), or when it
 * would grow the working copy past MAX_WORKING_COPY_BYTES. A refused update is neither applied,
 * stored nor forwarded: the connection that sent it is closed with the reason (socket.ts).
 *
 * Why before and not after: once applied, a piece is in the document's history for good (taking
 * it back leaves a tombstone per piece), and its memory was already spent.
 */
import * as Y from "yjs";

/**
 * The working copy's encoded size at most: twice the 2 MiB a published page may hold, which
 * leaves room for a long editing history (deleted text stays as small tombstones) while an
 * account writing into it can make one room cost only a few tens of MB of memory.
 */
export const MAX_WORKING_COPY_BYTES = 4 * 1024 * 1024;

/**
 * Types inside types, at most: a page's nodes nest at most 40 deep (content/structure.ts), and
 * converting a room recurses once per level (20,000 levels, 420 KB, overflowed the stack).
 */
export const MAX_NESTING = 64;

/** A change the room refuses; socket.ts closes the sender's connection with it. */
export class RefusedChange extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** 4400–4499: y-websocket does not reconnect, so the same update is not sent again and again. */
export const REFUSED = {
  outside: new RefusedChange(
    4415,
    "The editor sent a change outside the page's text, which the server does not keep. Reload the page to keep editing.",
  ),
  unknownBase: new RefusedChange(
    4409,
    "The editor sent a change built on content the server does not have. Reload the page to keep editing.",
  ),
  tooDeep: new RefusedChange(
    4415,
    "The editor sent content nested deeper than a page may hold, which the server does not keep. Reload the page to keep editing.",
  ),
  tooLarge: new RefusedChange(
    4413,
    "This page is too large to keep editing together: your last change was not kept. Copy " +
      "what you need, reload the page, and move part of it to a new page.",
  ),
} as const;

/** Throws a RefusedChange when the update may not be applied to this document. */
export function checkClientUpdate(doc: Y.Doc, update: Uint8Array, names: { fragment: string; meta: string }): void {
  const { structs, ds } = Y.decodeUpdate(update);
  const roots = new RootFinder(doc, structs);
  for (const struct of structs) {
    if (!(struct instanceof Y.Item)) continue; // GC and Skip carry no content.
    if (struct.id.clock + struct.length <= Y.getState(doc.store, struct.id.client)) continue; // already here
    const { root, depth } = roots.of(struct);
    if (root === null) throw REFUSED.unknownBase;
    // Built next to deleted content: Yjs turns it into a deleted placeholder, its content dropped.
    if (root === GONE) continue;
    if (root !== names.fragment || !allowedContent(struct)) throw REFUSED.outside;
    // Reading the room (and anything else that walks it) recurses once per level.
    if (depth > MAX_NESTING) throw REFUSED.tooDeep;
  }
  checkDeletions(doc, ds, roots, names.meta);
}

/** The XML the editor writes: elements, text with formatting, attributes with plain values. */
export function allowedContent(item: Y.Item): boolean {
  const content = item.content;
  if (content instanceof Y.ContentDeleted) return true;
  if (item.parentSub !== null) return content instanceof Y.ContentAny;
  if (content instanceof Y.ContentString || content instanceof Y.ContentFormat) return true;
  if (content instanceof Y.ContentType) return content.type.constructor === Y.XmlElement || content.type.constructor === Y.XmlText;
  return false;
}

/**
 * Deletions may take back any piece of the text, never the server's own facts (the version
 * number), and may name only content that exists (Yjs would keep the rest pending).
 */
function checkDeletions(
  doc: Y.Doc,
  ds: { clients: Map<number, Array<{ clock: number; len: number }>> },
  roots: RootFinder,
  metaName: string,
): void {
  const meta = doc.share.get(metaName) as Y.Map<unknown> | undefined;
  const facts = meta ? [...(meta as unknown as { _map: Map<string, Y.Item> })._map.values()].map((item) => item.id) : [];
  for (const [client, ranges] of ds.clients) {
    const known = Math.max(Y.getState(doc.store, client), roots.localEnd(client));
    for (const { clock, len } of ranges) {
      if (clock + len > known) throw REFUSED.unknownBase;
      for (const id of facts) if (id.client === client && id.clock >= clock && id.clock < clock + len) throw REFUSED.outside;
    }
  }
}

/** Next to (or inside) deleted content: harmless, Yjs keeps no content for it. */
const GONE = Symbol("gone");
type Root = string | typeof GONE | null;
/** Where a piece lands: its top-level type and how many types deep (0: in the top-level type). */
interface Place {
  root: Root;
  depth: number;
}

/**
 * Where each piece of an update lands. A piece names its parent only when it has no
 * neighbours; otherwise it shares the parent of the piece it was inserted next to, which is in
 * the document or earlier in the same update. Resolved without recursion (a paste is one long
 * chain of neighbours, a hostile update one long chain of nested elements), each piece once.
 */
class RootFinder {
  private readonly local = new Map<number, Array<Y.Item | Y.GC | Y.Skip>>();
  private readonly found = new Map<object, Place>();
  private readonly typePlaces = new Map<Y.AbstractType<any>, Place>();

  constructor(
    private readonly doc: Y.Doc,
    structs: Array<Y.Item | Y.GC | Y.Skip>,
  ) {
    for (const s of structs) {
      let list = this.local.get(s.id.client);
      if (!list) this.local.set(s.id.client, (list = []));
      list.push(s);
    }
  }

  /** The clock after this update's last piece of `client` (0: none). */
  localEnd(client: number): number {
    const list = this.local.get(client);
    const last = list?.[list.length - 1];
    return last ? last.id.clock + last.length : 0;
  }

  of(start: Y.Item): Place {
    // Each step: the piece, and 1 when the next one holds it (one type up), 0 for a neighbour.
    const chain: Array<{ piece: object; up: number }> = [];
    const visiting = new Set<object>();
    let at: Y.Item | Y.GC | Y.Skip | null = start;
    let end: Place | undefined;
    while (end === undefined) {
      const known = this.found.get(at!);
      if (known !== undefined) {
        end = known;
        break;
      }
      if (!(at instanceof Y.Item)) {
        end = { root: at instanceof Y.GC ? GONE : null, depth: 0 };
        break;
      }
      if (visiting.has(at)) {
        end = { root: null, depth: 0 }; // a cycle: nothing Yjs could place
        break;
      }
      visiting.add(at);
      const item: Y.Item = at;
      const parent = item.parent as Y.AbstractType<any> | Y.ID | string | null;
      if (typeof parent === "string") {
        chain.push({ piece: item, up: 0 });
        end = { root: parent, depth: 0 };
      } else if (parent instanceof Y.AbstractType) {
        chain.push({ piece: item, up: 0 });
        end = this.placeOfType(parent);
      } else if (parent !== null) {
        // Inside a type made by another piece: that piece must hold a type.
        const holder = this.find(parent);
        chain.push({ piece: item, up: 1 });
        if (!holder || (holder instanceof Y.Item && !(holder.content instanceof Y.ContentType))) end = { root: null, depth: 0 };
        else at = holder;
      } else {
        const neighbour = item.origin ?? item.rightOrigin;
        chain.push({ piece: item, up: 0 });
        at = neighbour ? this.find(neighbour) : null;
        if (!at) end = { root: null, depth: 0 };
      }
    }
    let depth = end.depth;
    for (let i = chain.length - 1; i >= 0; i--) {
      depth += chain[i].up;
      this.found.set(chain[i].piece, { root: end.root, depth });
    }
    return this.found.get(start) ?? end;
  }

  /** The piece holding `id`: this update's, or the document's. */
  private find(id: Y.ID): Y.Item | Y.GC | Y.Skip | null {
    const list = this.local.get(id.client);
    if (list && list.length > 0 && id.clock >= list[0].id.clock) {
      let lo = 0;
      let hi = list.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const s = list[mid];
        if (id.clock < s.id.clock) hi = mid - 1;
        else if (id.clock >= s.id.clock + s.length) lo = mid + 1;
        else return s;
      }
    }
    if (id.clock < Y.getState(this.doc.store, id.client)) return Y.getItem(this.doc.store, id) as Y.Item | Y.GC;
    return null;
  }

  /** A type in the document: the name it hangs under at the top, and how deep it is. */
  private placeOfType(type: Y.AbstractType<any>): Place {
    const known = this.typePlaces.get(type);
    if (known) return known;
    const path: Array<Y.AbstractType<any>> = [];
    let t = type;
    while (t._item) {
      if (t._item.deleted) return { root: GONE, depth: 0 };
      path.push(t);
      t = t._item.parent as Y.AbstractType<any>;
    }
    let name: Root = null;
    for (const [key, value] of this.doc.share) if (value === t) name = key;
    // The type `path[i]` is path.length - i types deep; a piece inside it one more.
    path.forEach((p, i) => this.typePlaces.set(p, { root: name, depth: path.length - i }));
    return { root: name, depth: path.length };
  }
}
