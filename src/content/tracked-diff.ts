/**
 * The difference between the open document (the working copy) and a version that arrived from
 * outside, shown as tracked changes: the incoming content, with what it adds marked `insertion`
 * and what it drops kept in place and marked `deletion`. Block-aware: blocks are aligned first
 * (identical ones by an LCS, then similar ones of the same type pairwise), and only the text of a
 * matched pair of text blocks is diffed word by word, formatting included.
 *
 * Each hunk (a run of adjacent deletions and insertions) gets its own id (tracked-hunks.ts), so a
 * reader can accept or reject it alone. What the schema cannot mark is not tracked and follows
 * the incoming document: block atoms (images, attachments, rules), code block text, empty text
 * blocks, and attribute changes (a heading level, a code language, a checked task).
 */
import { diffArrays } from "diff";
import { Fragment, type Node as PMNode } from "@tiptap/pm/model";
import { Transform } from "@tiptap/pm/transform";
import { type DiffContext, Hunk } from "./tracked-hunks";
import { tokenDiff, wordSet } from "./tracked-tokens";
import { isTrackedMark, resolveChanges, whollyGone } from "./tracked-resolve";

/** Pairs of dissimilar blocks are shown as a removed block and an added one instead. */
const SIMILAR = 0.34;
/** Text blocks sharing fewer words than this are shown as all old text replaced by all new. */
const REWORDED = 0.25;
/** Above this many candidate pairs in one gap, blocks are not paired (a rewrite, not an edit). */
const MAX_PAIRINGS = 250_000;
/**
 * Children aligned by position: their parents' content has a fixed shape. A table's rows are
 * aligned like blocks when every row of both tables spans the same columns (rows added or
 * removed, then, keep the table rectangular); otherwise the table must keep its shape.
 */
const POSITIONAL = new Set(["table", "tableRow", "details"]);

/** The table's column count if every row spans exactly that many columns and no cell spans rows. */
function plainWidth(table: PMNode): number | null {
  let width: number | null = null;
  let plain = true;
  table.forEach((row) => {
    let columns = 0;
    row.forEach((cell) => {
      columns += Number(cell.attrs.colspan ?? 1);
      if (Number(cell.attrs.rowspan ?? 1) !== 1) plain = false;
    });
    if (width !== null && columns !== width) plain = false;
    width = columns;
  });
  return plain ? width : null;
}

function positional(w: PMNode, i: PMNode): boolean {
  if (i.type.name !== "table") return POSITIONAL.has(i.type.name);
  const width = plainWidth(i);
  return width === null || plainWidth(w) !== width;
}

export function acceptedView(node: PMNode): PMNode | null {
  if (whollyGone(node, "accept", null)) return null;
  let tracked = false;
  node.descendants((child) => {
    if (child.marks.some(isTrackedMark)) tracked = true;
    return !tracked;
  });
  if (!tracked) return node;
  const tr = new Transform(node);
  resolveChanges(tr, "accept");
  return tr.doc;
}

function canTrack(textblock: PMNode): boolean {
  return textblock.type.allowsMarkType(textblock.type.schema.marks.insertion);
}

/** The node with every markable inline node passed through `map` (which may drop it). */
function mapInline(node: PMNode, map: (inline: PMNode) => PMNode | null): PMNode {
  if (node.isLeaf) return node;
  if (node.inlineContent) {
    if (!canTrack(node)) return node;
    const content: PMNode[] = [];
    node.forEach((child) => {
      const mapped = map(child);
      if (mapped) content.push(mapped);
    });
    return node.copy(Fragment.fromArray(content));
  }
  const content: PMNode[] = [];
  node.forEach((child) => content.push(mapInline(child, map)));
  return node.copy(Fragment.fromArray(content));
}

/**
 * A working-copy block the incoming version no longer has: as it would be with its pending
 * changes rejected (text still pending as an earlier insertion simply goes), all its text marked
 * deleted. Dropped if nothing in it can carry the mark.
 */
export function deletedBlock(node: PMNode, hunk: Hunk): PMNode | null {
  if (whollyGone(node, "reject", null)) return null;
  const tr = new Transform(node);
  resolveChanges(tr, "reject");
  const marked = mapInline(tr.doc, (inline) => inline.mark(hunk.mark("deletion").addToSet(inline.marks)));
  return whollyGone(marked, "accept", null) ? marked : null;
}

/** An incoming block the working copy did not have: its text marked inserted. */
export function insertedBlock(node: PMNode, hunk: Hunk): PMNode {
  return mapInline(node, (inline) => inline.mark(hunk.mark("insertion").addToSet(inline.marks)));
}

const key = (node: PMNode) => JSON.stringify(node.toJSON());

function words(node: PMNode): Set<string> {
  return wordSet(node.textBetween(0, node.content.size, " ", " "));
}

function similarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let common = 0;
  for (const w of a) if (b.has(w)) common++;
  return (2 * common) / (a.size + b.size);
}

/** The best order-keeping pairing of two runs of blocks, as [w index, i index] pairs. */
function pairBlocks(ws: PMNode[], is: PMNode[]): [number, number][] {
  if (ws.length === 0 || is.length === 0 || ws.length * is.length > MAX_PAIRINGS) return [];
  const wWords = ws.map(words);
  const iWords = is.map(words);
  const score = (a: number, b: number) => {
    if (ws[a].type !== is[b].type || ws[a].isLeaf) return 0;
    const s = similarity(wWords[a], iWords[b]);
    // Two text blocks of a kind are better shown as one block with its text replaced than as a
    // removed block and an added one, however different; but an empty one has nothing to mark.
    if (ws[a].isTextblock) return ws[a].content.size && is[b].content.size ? Math.max(s, 0.01) : 0;
    return s >= SIMILAR ? s : 0;
  };
  const cols = is.length + 1;
  const best = new Float64Array((ws.length + 1) * cols);
  for (let a = ws.length - 1; a >= 0; a--) {
    for (let b = is.length - 1; b >= 0; b--) {
      const s = score(a, b);
      best[a * cols + b] = Math.max(best[(a + 1) * cols + b], best[a * cols + b + 1], s > 0 ? s + best[(a + 1) * cols + b + 1] : 0);
    }
  }
  const pairs: [number, number][] = [];
  let a = 0;
  let b = 0;
  while (a < ws.length && b < is.length) {
    const here = best[a * cols + b];
    const s = score(a, b);
    if (s > 0 && here === s + best[(a + 1) * cols + b + 1]) pairs.push([a++, b++]);
    else if (here === best[(a + 1) * cols + b]) a++;
    else b++;
  }
  return pairs;
}

interface WorkingItem {
  node: PMNode;
  /** Already deleted (pending an earlier change): invisible to the diff, kept where it is. */
  gone: boolean;
}

/** Writes one gap between identical blocks: pairs diffed inside, the rest as whole-block hunks. */
function writeGap(ws: WorkingItem[], is: PMNode[], ctx: DiffContext, out: PMNode[]): void {
  const live = ws.filter((w) => !w.gone);
  const liveAt = ws.flatMap((w, n) => (w.gone ? [] : [n]));
  const pairs = pairBlocks(
    live.map((w) => w.node),
    is,
  );
  let removed: WorkingItem[] = [];
  let added: PMNode[] = [];
  const flush = () => {
    const hunk = new Hunk(ctx);
    for (const w of removed) {
      const node = w.gone ? w.node : deletedBlock(w.node, hunk);
      if (node) out.push(node);
    }
    for (const i of added) out.push(insertedBlock(i, hunk));
    removed = [];
    added = [];
  };
  let wAt = 0;
  let iAt = 0;
  for (const [a, b] of [...pairs, [live.length, is.length] as [number, number]]) {
    const target = a === live.length ? ws.length : liveAt[a];
    while (wAt < target) removed.push(ws[wAt++]);
    while (iAt < b) added.push(is[iAt++]);
    if (a === live.length) break;
    const merged = mergeNode(ws[wAt].node, is[iAt], ctx);
    if (merged) {
      flush();
      out.push(merged);
    } else {
      removed.push(ws[wAt]);
      added.push(is[iAt]);
    }
    wAt++;
    iAt++;
  }
  while (wAt < ws.length) removed.push(ws[wAt++]);
  flush();
}

function mergeChildren(w: PMNode, i: PMNode, ctx: DiffContext): PMNode[] {
  // A lone text block on both sides (a table cell's, a one-line page's) is one block edited, even
  // when one side is empty: the parent cannot be left without it, so accepting or rejecting
  // empties it rather than removing it.
  const [lone, loneIncoming] = [w.firstChild!, i.firstChild!];
  if (
    w.childCount === 1 &&
    i.childCount === 1 &&
    lone.type === loneIncoming.type &&
    lone.isTextblock &&
    !whollyGone(lone, "accept", null)
  ) {
    const merged = mergeNode(lone, loneIncoming, ctx, true);
    if (merged) return [merged];
  }
  const items: WorkingItem[] = [];
  const liveKeys: string[] = [];
  w.forEach((node) => {
    const view = acceptedView(node);
    items.push({ node, gone: view === null });
    if (view) liveKeys.push(key(view));
  });
  const incoming: PMNode[] = [];
  i.forEach((node) => incoming.push(node));
  const out: PMNode[] = [];
  let gapW: WorkingItem[] = [];
  let gapI: PMNode[] = [];
  let wAt = 0;
  let iAt = 0;
  const nextLive = (into: WorkingItem[]) => {
    while (items[wAt].gone) into.push(items[wAt++]);
    into.push(items[wAt++]);
  };
  for (const part of diffArrays(liveKeys, incoming.map(key))) {
    if (part.removed) for (let n = 0; n < part.count; n++) nextLive(gapW);
    else if (part.added) for (let n = 0; n < part.count; n++) gapI.push(incoming[iAt++]);
    else {
      for (let n = 0; n < part.count; n++) {
        while (items[wAt].gone) gapW.push(items[wAt++]);
        writeGap(gapW, gapI, ctx, out);
        gapW = [];
        gapI = [];
        out.push(items[wAt++].node);
        iAt++;
      }
    }
  }
  gapW.push(...items.slice(wAt));
  writeGap(gapW, gapI, ctx, out);
  return out;
}

/**
 * The tracked merge of two blocks of the same type, with the incoming block's attributes; null
 * when they cannot be shown as one block (the caller shows a removed and an added one instead).
 */
export function mergeNode(w: PMNode, i: PMNode, ctx: DiffContext, kept = false): PMNode | null {
  const merged = mergeSame(w, i, ctx);
  // A block whose text all goes on accepting (or on rejecting) is taken for a removed block and
  // goes too; unless its parent keeps it (`kept`: a lone child, a details part, a table cell), an
  // edited block that ends up like that is shown as a removed block and an added one instead.
  if (!merged || kept) return merged;
  return whollyGone(merged, "accept", null) || whollyGone(merged, "reject", null) ? null : merged;
}

function mergeSame(w: PMNode, i: PMNode, ctx: DiffContext): PMNode | null {
  if (w.type !== i.type) return null;
  if (i.isLeaf) return i;
  if (i.inlineContent) {
    if (!canTrack(i)) return i;
    // Word by word, two unrelated sentences would match on "the" and "of" and read as confetti.
    const whole = similarity(words(acceptedView(w) ?? w), words(i)) < REWORDED;
    return i.type.create(
      i.attrs,
      tokenDiff(w, i, () => new Hunk(ctx), whole),
      i.marks,
    );
  }
  let children: PMNode[];
  if (positional(w, i)) {
    if (w.childCount !== i.childCount) return null;
    children = [];
    for (let n = 0; n < i.childCount; n++) {
      const [a, b] = [w.child(n), i.child(n)];
      if (a.attrs.colspan !== b.attrs.colspan || a.attrs.rowspan !== b.attrs.rowspan) return null;
      const merged = mergeNode(a, b, ctx, i.type.name !== "table");
      if (!merged) return null;
      children.push(merged);
    }
  } else {
    children = mergeChildren(w, i, ctx);
  }
  const content = Fragment.fromArray(children);
  return i.type.validContent(content) ? i.type.create(i.attrs, content, i.marks) : null;
}
