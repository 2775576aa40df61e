/**
 * A readable comparison of two versions, block by block: the top-level blocks are aligned by
 * their text (the `diff` package's array diff), and blocks changed in place are compared word
 * by word, so a person sees which words went in and which went out.
 */
import { diffArrays, diffWordsWithSpace } from "diff";
import type { DocJson } from "../../api/client";

export interface Piece {
  text: string;
  kind: "same" | "added" | "removed";
}
export interface BlockChange {
  kind: "same" | "added" | "removed" | "changed";
  /** The block's type (paragraph, heading…), to draw it like one. */
  type: string;
  level?: number;
  pieces: Piece[];
}

/** A block's words: its text nodes, block children separated by a line break. */
export function blockText(block: DocJson): string {
  if (block.type === "text") return block.text ?? "";
  if (block.type === "hardBreak") return "\n";
  const inner = (block.content ?? []).map(blockText);
  const inline = (block.content ?? []).every((c) => c.type === "text" || c.type === "hardBreak" || c.type === "mention" || c.type === "image");
  if (block.type === "mention") return `@${String(block.attrs?.label ?? "")}`;
  return inner.join(inline ? "" : "\n");
}

export function compareDocs(older: DocJson, newer: DocJson): BlockChange[] {
  const a = older.content ?? [];
  const b = newer.content ?? [];
  const parts = diffArrays(a.map(blockText), b.map(blockText));
  const out: BlockChange[] = [];
  let ia = 0;
  let ib = 0;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p];
    const next = parts[p + 1];
    // A run removed right before a run added: the same blocks rewritten, compared word by word.
    if (part.removed && next?.added) {
      const n = Math.max(part.value.length, next.value.length);
      for (let k = 0; k < n; k++) {
        const oldB = a[ia + k];
        const newB = b[ib + k];
        if (oldB && newB) out.push({ kind: "changed", type: newB.type, level: newB.attrs?.level as number | undefined, pieces: diffWordsWithSpace(blockText(oldB), blockText(newB)).map((c) => ({ text: c.value, kind: c.added ? "added" : c.removed ? "removed" : "same" })) });
        else if (oldB) out.push({ kind: "removed", type: oldB.type, pieces: [{ text: blockText(oldB), kind: "removed" }] });
        else if (newB) out.push({ kind: "added", type: newB.type, pieces: [{ text: blockText(newB), kind: "added" }] });
      }
      ia += part.value.length;
      ib += next.value.length;
      p++;
      continue;
    }
    for (let k = 0; k < part.value.length; k++) {
      if (part.added) {
        const blk = b[ib++];
        out.push({ kind: "added", type: blk.type, level: blk.attrs?.level as number | undefined, pieces: [{ text: blockText(blk), kind: "added" }] });
      } else if (part.removed) {
        const blk = a[ia++];
        out.push({ kind: "removed", type: blk.type, level: blk.attrs?.level as number | undefined, pieces: [{ text: blockText(blk), kind: "removed" }] });
      } else {
        const blk = b[ib++];
        ia++;
        out.push({ kind: "same", type: blk.type, level: blk.attrs?.level as number | undefined, pieces: [{ text: blockText(blk), kind: "same" }] });
      }
    }
  }
  return out;
}
