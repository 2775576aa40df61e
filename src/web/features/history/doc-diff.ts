/**
 * Two versions of a document compared block by block, as a document to draw with the reading
 * view's renderer: tables stay tables, lists lists, code code. Blocks are aligned by their whole
 * content (the `diff` package's array diff, as the conflict view's block-diff.ts aligns them),
 * then a block changed in place is compared inside:
 * - a container of the same kind (list, list item, table, row, cell, quote, panel, details) is
 *   compared child by child, so one changed cell or item is shown in its table or list;
 * - a paragraph or heading is shown twice, before then after, the words that went out marked
 *   deleted in the first and those that came in marked inserted in the second (never words of
 *   both versions interleaved in one line);
 * - a code block is compared line by line, removed lines then added ones, as a code diff;
 * - anything else (an image, a divider, a block that changed kind) as removed then added.
 * A changed node carries `attrs.diff` ("added", "removed", "before", "after"); changed text
 * carries the schema's own `insertion` / `deletion` marks, which the renderer draws as ins/del.
 */
import { diffArrays, diffLines, diffWordsWithSpace } from "diff";
import type { DocJson } from "../../api/client";

export type DiffKind = "added" | "removed" | "before" | "after";
type Range = [number, number];

const CONTAINERS = new Set([
  "bulletList",
  "orderedList",
  "taskList",
  "listItem",
  "taskItem",
  "blockquote",
  "table",
  "tableRow",
  "tableCell",
  "tableHeader",
  "panel",
  "details",
  "detailsContent",
]);
const INLINE = new Set(["text", "hardBreak", "mention", "image"]);
const MARK: Record<"added" | "removed", string> = { added: "insertion", removed: "deletion" };

const key = (node: DocJson) => JSON.stringify(node);
const sameAttrs = (a: DocJson, b: DocJson) => JSON.stringify(a.attrs ?? {}) === JSON.stringify(b.attrs ?? {});
const tagged = (node: DocJson, diff: DiffKind): DocJson => ({ ...node, attrs: { ...node.attrs, diff } });
const withMark = (node: DocJson, type: string): DocJson => ({ ...node, marks: [...(node.marks ?? []), { type }] });
const isTextblock = (node: DocJson) =>
  node.type !== "codeBlock" && !!node.content?.length && node.content.every((c) => INLINE.has(c.type ?? ""));

/** What an inline node counts for in a block's text (as the reading view shows it). */
function inlineText(node: DocJson): string {
  if (node.type === "text") return node.text ?? "";
  if (node.type === "hardBreak") return "\n";
  if (node.type === "mention") return `@${String(node.attrs?.label ?? "")}`;
  return "";
}

/** Every text in `node` marked inserted or deleted, the node tagged: a block only one version has. */
function whole(node: DocJson, kind: "added" | "removed"): DocJson {
  const mark = (n: DocJson): DocJson =>
    n.type === "text" || n.type === "mention" || n.type === "hardBreak"
      ? withMark(n, MARK[kind])
      : n.content
        ? { ...n, content: n.content.map(mark) }
        : n;
  return tagged(mark(node), kind);
}

/** `content` (inline nodes) with the characters in `ranges` carrying `mark`. */
export function markRanges(content: DocJson[], ranges: Range[], mark: string): DocJson[] {
  const out: DocJson[] = [];
  let pos = 0;
  for (const node of content) {
    const len = inlineText(node).length;
    if (node.type !== "text") {
      out.push(ranges.some(([s, e]) => s < pos + len && e > pos) ? withMark(node, mark) : node);
      pos += len;
      continue;
    }
    const cuts = new Set([0, len]);
    for (const [s, e] of ranges) for (const b of [s - pos, e - pos]) if (b > 0 && b < len) cuts.add(b);
    const sorted = [...cuts].sort((x, y) => x - y);
    for (let i = 0; i + 1 < sorted.length; i++) {
      const [from, to] = [sorted[i], sorted[i + 1]];
      const piece = { ...node, text: node.text!.slice(from, to) };
      out.push(ranges.some(([s, e]) => s <= pos + from && pos + to <= e) ? withMark(piece, mark) : piece);
    }
    pos += len;
  }
  return out;
}

/** Ranges only whitespace apart made one ("Friday afternoon" marked as one piece, not two words). */
function joined(ranges: Range[], text: string): Range[] {
  const out: Range[] = [];
  for (const r of ranges) {
    const last = out.at(-1);
    if (last && /^\s*$/.test(text.slice(last[1], r[0]))) last[1] = r[1];
    else out.push([r[0], r[1]]);
  }
  return out;
}

/** A paragraph or heading changed in place: before (words out marked) then after (words in marked). */
function textblockPair(before: DocJson, after: DocJson): DocJson[] {
  const oldText = (before.content ?? []).map(inlineText).join("");
  const newText = (after.content ?? []).map(inlineText).join("");
  const removed: Range[] = [];
  const added: Range[] = [];
  let a = 0;
  let b = 0;
  for (const part of diffWordsWithSpace(oldText, newText)) {
    const n = part.value.length;
    if (part.removed) removed.push([a, (a += n)]);
    else if (part.added) added.push([b, (b += n)]);
    else (a += n), (b += n);
  }
  return [
    { ...tagged(before, "before"), content: markRanges(before.content ?? [], joined(removed, oldText), MARK.removed) },
    { ...tagged(after, "after"), content: markRanges(after.content ?? [], joined(added, newText), MARK.added) },
  ];
}

/** A code block changed in place: its lines, each kept, removed or added (`codeLine` nodes). */
function codePair(before: DocJson, after: DocJson): DocJson {
  const text = (n: DocJson) => (n.content ?? []).map(inlineText).join("");
  const lines: DocJson[] = [];
  for (const part of diffLines(text(before), text(after))) {
    const kind = part.added ? "added" : part.removed ? "removed" : null;
    for (const line of part.value.replace(/\n$/, "").split("\n")) {
      const content = line ? [kind ? withMark({ type: "text", text: line }, MARK[kind]) : { type: "text", text: line }] : [];
      lines.push({ type: "codeLine", attrs: kind ? { diff: kind } : {}, content });
    }
  }
  return { ...after, attrs: { ...after.attrs, diff: "after" }, content: lines };
}

/** Two blocks in the same place of each version, different. */
function changedPair(before: DocJson, after: DocJson): DocJson[] {
  if (before.type !== after.type) return [whole(before, "removed"), whole(after, "added")];
  if (before.type === "codeBlock") return [codePair(before, after)];
  if (isTextblock(before) && isTextblock(after)) return textblockPair(before, after);
  if (CONTAINERS.has(after.type ?? "") && before.content && after.content) {
    const inner = diffContent(before.content, after.content);
    // The same content with other attributes (a ticked task, a panel of another kind): both shown.
    if (inner.every((n, i) => n === after.content![i]) && inner.length === after.content.length && !sameAttrs(before, after))
      return [tagged(before, "before"), tagged(after, "after")];
    return [{ ...after, content: inner }];
  }
  return [whole(before, "removed"), whole(after, "added")];
}

/** All the words of a block, for telling whether two blocks are one block changed. */
function words(node: DocJson, into: string[] = []): string[] {
  if (node.type === "text") into.push(...(node.text ?? "").toLowerCase().split(/\W+/).filter(Boolean));
  for (const c of node.content ?? []) words(c, into);
  return into;
}

/** How alike two blocks are: 0 (another kind, no word in common) to 1 (the same words). */
function likeness(a: DocJson, b: DocJson): number {
  if (a.type !== b.type) return 0;
  const wa = new Set(words(a));
  const wb = new Set(words(b));
  if (!wa.size && !wb.size) return 0.5;
  let common = 0;
  for (const w of wa) if (wb.has(w)) common++;
  return common / (wa.size + wb.size - common);
}

/** Blocks alike enough to be shown as one block changed rather than one removed and one added. */
const ALIKE = 0.25;
/** Beyond this many blocks on each side, a rewritten run is paired in order (the alignment is quadratic). */
const ALIGN_LIMIT = 60;

/**
 * The blocks of a rewritten run, in order: pairs of alike blocks (the alignment with the most
 * likeness in total), and the others alone; removed before added between two pairs.
 */
function pairUp(before: DocJson[], after: DocJson[]): Array<[DocJson | undefined, DocJson | undefined]> {
  const n = before.length;
  const m = after.length;
  // A row's cells keep their columns: as many cells before as after are compared in place.
  const cells = [...before, ...after].every((b) => b.type === "tableCell" || b.type === "tableHeader");
  // One block in place of one of its kind: that block, changed.
  const one = n === 1 && m === 1 && before[0].type === after[0].type;
  if ((cells && n === m) || one || n > ALIGN_LIMIT || m > ALIGN_LIMIT)
    return Array.from({ length: Math.max(n, m) }, (_, k) => [before[k], after[k]]);
  const like = before.map((a) => after.map((b) => likeness(a, b)));
  const best = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      best[i][j] = Math.max(best[i + 1][j], best[i][j + 1], like[i][j] >= ALIKE ? best[i + 1][j + 1] + like[i][j] : 0);
  const out: Array<[DocJson | undefined, DocJson | undefined]> = [];
  const added: DocJson[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && like[i][j] >= ALIKE && best[i][j] === best[i + 1][j + 1] + like[i][j]) {
      for (const b of added.splice(0)) out.push([undefined, b]);
      out.push([before[i++], after[j++]]);
    } else if (i < n && (j === m || best[i][j] === best[i + 1][j])) out.push([before[i++], undefined]);
    else added.push(after[j++]);
  }
  for (const b of added) out.push([undefined, b]);
  return out;
}

/** Two lists of sibling blocks aligned: kept ones as they are, the rest compared or marked. */
export function diffContent(older: DocJson[], newer: DocJson[]): DocJson[] {
  const parts = diffArrays(older.map(key), newer.map(key));
  const out: DocJson[] = [];
  let ia = 0;
  let ib = 0;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p];
    const n = part.value.length;
    if (part.removed && parts[p + 1]?.added) {
      // A run rewritten: the blocks that still resemble each other are compared, the rest removed or added.
      const m = parts[p + 1].value.length;
      for (const [before, after] of pairUp(older.slice(ia, ia + n), newer.slice(ib, ib + m))) {
        if (before && after) out.push(...changedPair(before, after));
        else if (before) out.push(whole(before, "removed"));
        else if (after) out.push(whole(after, "added"));
      }
      ia += n;
      ib += m;
      p++;
    } else if (part.removed) {
      for (let k = 0; k < n; k++) out.push(whole(older[ia++], "removed"));
    } else if (part.added) {
      for (let k = 0; k < n; k++) out.push(whole(newer[ib++], "added"));
    } else {
      for (let k = 0; k < n; k++) out.push(newer[ib++]), ia++;
    }
  }
  return out;
}

/** The newer version with the older one's differences shown in it, and how many blocks changed. */
export function compareVersions(older: DocJson, newer: DocJson): { doc: DocJson; changed: number } {
  const content = diffContent(older.content ?? [], newer.content ?? []);
  const unchanged = new Set(newer.content ?? []);
  return { doc: { type: "doc", content }, changed: content.filter((b) => !unchanged.has(b)).length };
}
