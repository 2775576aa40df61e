/**
 * Keeps streamed uploads' memory flat. Bun hands a request body over in ~64 KB chunks, each a
 * new buffer that is garbage once written, and the collector lets them pile up: a bare Bun
 * server reading a 20 MB body grows by 9–22 MB. A full collection frees them and the allocator
 * then reuses their memory. Measured on a 20 MB upload (scripts/bench/upload.ts): a full
 * collection per 1 MB keeps growth at 1.4–4.6 MB for ~8 ms per collection; per 2 MB, 1–9 MB;
 * young-generation collections, however often, do not help (13–22 MB).
 *
 * The count is per process, like the heap: concurrent uploads share the collections.
 */
const COLLECT_EVERY_BYTES = 1024 * 1024;
let sinceCollection = 0;

/** Called with each uploaded chunk's size once it is on disk (and no longer referenced). */
export function uploadedBytes(n: number): void {
  sinceCollection += n;
  if (sinceCollection < COLLECT_EVERY_BYTES) return;
  sinceCollection = 0;
  Bun.gc(true);
}
