/**
 * The server-wide line for image decoding: one decode at a time, a few more waiting, and the
 * rest refused at once (429) rather than each holding its upload in memory while it waits.
 *
 * After each decode the heap is collected: the codecs' WebAssembly memories (a fresh one per
 * JPEG or WebP, image-codecs.ts) and the decoded pixels are garbage by then, but a collector
 * left to its own pace lets several of them pile up across a burst of uploads (eight 36 MP
 * PNGs in a row reached 1.3 GB before this). A full collection costs a few milliseconds, next
 * to the hundreds a decode takes.
 */
import { AppError } from "./errors";

/** How many images may wait behind the one being decoded. */
export const MAX_WAITING = 8;

let tail: Promise<unknown> = Promise.resolve();
let waiting = 0;

/** Runs `decode` when the images ahead of it are done; 429 naming `field` when the line is full. */
export function decodeInTurn<T>(field: string, decode: () => Promise<T>): Promise<T> {
  if (waiting >= MAX_WAITING) {
    throw new AppError("rate_limited", {
      field,
      detail: "Too many images are being processed on the server right now. Try again in a moment.",
      headers: { "Retry-After": "2" },
      extra: { retryAfter: 2 },
    });
  }
  waiting++;
  const run = tail.then(async () => {
    waiting--;
    try {
      return await decode();
    } finally {
      Bun.gc(true);
    }
  });
  tail = run.catch(() => undefined);
  return run;
}
