import type { Core } from "../../core";

/**
 * FTS5's own records, read where its SQL functions do not reach (fts5-body.ts): the averages
 * record of an index, its row 1 in the `_data` table (rows, then tokens per column).
 */

/** Rows (pages) in a word index, and their tokens in all columns, from its averages record. */
export function indexTotals(core: Core, index: "search_words" | "search_recent"): { rows: number; tokens: number } {
  const block = core.sqlite.query<{ block: Uint8Array }, []>(`SELECT block FROM ${index}_data WHERE id = 1`).get()?.block ?? null;
  const [rows = 0, ...columns] = varints(block);
  return { rows, tokens: columns.reduce((a, b) => a + b, 0) };
}

/** SQLite varints, as FTS5 writes its records (7 bits a byte, high bit: more follow). */
function varints(bytes: Uint8Array | null): number[] {
  const out: number[] = [];
  let value = 0;
  for (const byte of bytes ?? []) {
    value = value * 128 + (byte & 0x7f);
    if (byte < 0x80) {
      out.push(value);
      value = 0;
    }
  }
  return out;
}
