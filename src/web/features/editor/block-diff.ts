/**
 * Which top-level blocks two documents share, in order (the `diff` package's array diff over
 * each block's JSON): the conflict view marks the others and can copy one across.
 */
import { diffArrays } from "diff";
import type { DocJson } from "../../api/client";

export interface AlignedBlock {
  block: DocJson;
  side: "both" | "mine" | "theirs";
  /** For a block only theirs has: where it would go in mine (a top-level index). */
  insertAt: number;
}

export function alignBlocks(mine: DocJson, theirs: DocJson): AlignedBlock[] {
  const a = (mine.content ?? []).map((b) => JSON.stringify(b));
  const b = (theirs.content ?? []).map((x) => JSON.stringify(x));
  const out: AlignedBlock[] = [];
  let mineIndex = 0;
  for (const part of diffArrays(a, b)) {
    for (const json of part.value) {
      const block = JSON.parse(json) as DocJson;
      if (part.added) out.push({ block, side: "theirs", insertAt: mineIndex });
      else {
        out.push({ block, side: part.removed ? "mine" : "both", insertAt: mineIndex });
        mineIndex++;
      }
    }
  }
  return out;
}
