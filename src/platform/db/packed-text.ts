/**
 * Large texts stored compressed: a column that holds either the text itself (rows written before
 * it was packed, small texts, raw inserts) or a zstd frame of its UTF-8 bytes (a BLOB). Readers
 * tell them apart by type, so existing rows need no rewrite and either form may be written.
 *
 * Why: every page edit writes a new version row, and its document went to the WAL at full size
 * (about 8 KB for a page of 500 words: the leaf and two overflow pages). zstd at level 1 makes it
 * about 2.3 KB in ~20 µs, less than the COMMIT and the WAL archive spent on the bytes saved.
 * Versions are read seldom (history, a diff, a restore, an export), ~15 µs each to unpack.
 */

/** Texts shorter than this stay as they are: too small to save a page of the database. */
const PACK_FROM = 1024;
const LEVEL = 1;
const utf8 = new TextDecoder();

/** What to store for `text`: a zstd frame, or the text itself when it is short. */
export function packText(text: string): string | Uint8Array {
  if (text.length < PACK_FROM) return text;
  return Bun.zstdCompressSync(Buffer.from(text, "utf8"), { level: LEVEL });
}

/** The text a stored value holds, whichever form it was stored in. */
export function unpackText(stored: string | Uint8Array): string {
  if (typeof stored === "string") return stored;
  return utf8.decode(Bun.zstdDecompressSync(stored));
}
