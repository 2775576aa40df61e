/**
 * Large texts stored compressed: a column that holds either the text itself (rows written before
 * it was packed, small texts, raw inserts) or a zstd frame of its UTF-8 bytes (a BLOB). Readers
 * tell them apart by type, so existing rows need no rewrite and either form may be written.
 *
 * Why: every page edit rewrites the page's row and adds a version row, each with the document,
 * and each went to the WAL at full size (a page of 500 words: a 6.6 KB document, a leaf and one
 * or two overflow pages each time). zstd at level 1 makes it about 2.2 KB in ~20 µs, less than
 * the COMMIT and the WAL archive spent on the pages saved; unpacking costs ~15 µs, paid by a read
 * that no kept answer serves (a page after its change, a version, an export).
 */

/** Texts shorter than this stay as they are: too small to save a page of the database. */
const PACK_FROM = 1024;
const LEVEL = 1;
const utf8 = new TextDecoder();

// An edit stores its document twice (the page and its version): packed once.
let lastText = "";
let lastPacked: Uint8Array = new Uint8Array(0);

/** What to store for `text`: a zstd frame, or the text itself when it is short. */
export function packText(text: string): string | Uint8Array {
  if (text.length < PACK_FROM) return text;
  if (text !== lastText) {
    lastPacked = Bun.zstdCompressSync(Buffer.from(text, "utf8"), { level: LEVEL });
    lastText = text;
  }
  return lastPacked;
}

/** The text a stored value holds, whichever form it was stored in (null stays null). */
export function unpackText<T extends string | Uint8Array | null>(stored: T): T extends Uint8Array ? string : T {
  if (stored === null || typeof stored === "string") return stored as never;
  return utf8.decode(Bun.zstdDecompressSync(stored as Uint8Array)) as never;
}
