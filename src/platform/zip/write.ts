/**
 * A deterministic, streaming zip writer (fflate's deflate underneath, the container written
 * here so every byte is ours to fix). The same entries added in the same order give the same
 * bytes: every entry's time is 1980-01-01 00:00 (the DOS epoch), no extra fields (except the
 * ZIP64 ones an archive past 4 GB or 65,535 entries needs), fixed attributes, names always
 * flagged UTF-8. fflate rather than the runtime's zlib so the bytes do not depend on which zlib
 * the binary was built with.
 *
 * Pull-based: `fill` runs only while the reader asks for more (at most ~1 MB waits in the
 * stream's queue), so a slow client slows the producer and memory stays flat.
 */
import { crc32 } from "node:zlib";
import { Deflate, deflateSync } from "fflate";
import { type CentralRecord, centralDirectory, localHeader, MAX_ENTRY_BYTES, dataDescriptor } from "./format";

export interface ZipSink {
  /**
   * Adds one file. A Blob (a file of the blob store) is read in fixed 64 KB slices rather than
   * held in memory; `store` keeps the bytes as they are (already-compressed data: images, zips).
   */
  add(path: string, data: Uint8Array | string | Blob, opts?: { store?: boolean }): Promise<void>;
}

/** Thrown into `fill` (from `add`) when the reader cancelled the stream: stop producing. */
export class ZipCancelled extends Error {
  constructor() {
    super("the zip's reader went away");
  }
}

const QUEUE_BYTES = 1 << 20;
const SLICE = 64 * 1024;
const LEVEL = 6;
const encoder = new TextEncoder();

/** A ReadableStream of the zip whose entries `fill` adds; pull-based so memory stays flat. */
export function zipStream(fill: (zip: ZipSink) => Promise<void>): ReadableStream<Uint8Array> {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let wake: (() => void) | null = null;
  let cancelled = false;
  let started = false;
  let offset = 0;
  const records: CentralRecord[] = [];
  const paths = new Set<string>();

  const resume = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  async function emit(chunk: Uint8Array): Promise<void> {
    if (cancelled) throw new ZipCancelled();
    if (chunk.byteLength === 0) return;
    controller.enqueue(chunk);
    offset += chunk.byteLength;
    if ((controller.desiredSize ?? 1) <= 0) await new Promise<void>((r) => (wake = r));
    if (cancelled) throw new ZipCancelled();
  }

  const sink: ZipSink = {
    async add(path, data, opts = {}) {
      const name = encoder.encode(path);
      if (path === "" || name.byteLength > 0xffff) throw new Error(`zip entry name not allowed: ${JSON.stringify(path)}`);
      if (paths.has(path)) throw new Error(`zip entry added twice: ${path}`);
      paths.add(path);
      const method = opts.store ? 0 : 8;
      const start = offset;
      if (data instanceof Blob) {
        if (data.size > MAX_ENTRY_BYTES) throw new Error(`zip entry too large (4 GB or more): ${path}`);
        if (method === 0) {
          // Stored: one pass for the checksum, then the bytes, so the header carries real sizes.
          let crc = 0;
          for (let at = 0; at < data.size; at += SLICE) crc = crc32(await sliceOf(data, at), crc);
          const rec = { name, method, crc, compressed: data.size, size: data.size, offset: start, descriptor: false };
          await emit(localHeader(rec));
          for (let at = 0; at < data.size; at += SLICE) await emit(await sliceOf(data, at));
          records.push(rec);
        } else {
          // Deflated: the compressed size is known only at the end, so a data descriptor follows.
          let crc = 0;
          let compressed = 0;
          const rec = { name, method, crc: 0, compressed: 0, size: data.size, offset: start, descriptor: true };
          await emit(localHeader(rec));
          const out: Uint8Array[] = [];
          const deflate = new Deflate({ level: LEVEL }, (chunk) => out.push(chunk));
          for (let at = 0; at === 0 || at < data.size; at += SLICE) {
            const slice = data.size === 0 ? new Uint8Array(0) : await sliceOf(data, at);
            crc = crc32(slice, crc);
            deflate.push(slice, at + SLICE >= data.size);
            for (const c of out.splice(0)) {
              compressed += c.byteLength;
              await emit(c);
            }
          }
          Object.assign(rec, { crc, compressed });
          await emit(dataDescriptor(rec));
          records.push(rec);
        }
        return;
      }
      const bytes = typeof data === "string" ? encoder.encode(data) : data;
      if (bytes.byteLength > MAX_ENTRY_BYTES) throw new Error(`zip entry too large (4 GB or more): ${path}`);
      const body = method === 0 ? bytes : deflateSync(bytes, { level: LEVEL, mem: memLevel(bytes.byteLength) });
      const rec = {
        name,
        method,
        crc: crc32(bytes),
        compressed: body.byteLength,
        size: bytes.byteLength,
        offset: start,
        descriptor: false,
      };
      await emit(localHeader(rec));
      for (let at = 0; at < body.byteLength; at += QUEUE_BYTES) await emit(body.subarray(at, at + QUEUE_BYTES));
      records.push(rec);
    },
  };

  async function run(): Promise<void> {
    try {
      await fill(sink);
      await emit(centralDirectory(records, offset));
      if (!cancelled) controller.close();
    } catch (err) {
      if (!cancelled) controller.error(err);
    }
  }

  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        if (!started) {
          started = true;
          void run();
        } else resume();
      },
      cancel() {
        cancelled = true;
        resume();
      },
    },
    { highWaterMark: QUEUE_BYTES, size: (chunk) => chunk?.byteLength ?? 0 },
  );
}

/**
 * fflate's one-shot deflate sizes its hash table for the largest inputs (2 MB, zeroed on every
 * call) unless told: small entries (a page's JSON) get one their size needs, at a fraction of
 * the allocation (the compression ratio stays within 0.1 %). Fixed by size, so still the same
 * bytes for the same input.
 */
function memLevel(size: number): 4 | 6 | 8 {
  return size <= 64 * 1024 ? 4 : size <= 1024 * 1024 ? 6 : 8;
}

async function sliceOf(blob: Blob, at: number): Promise<Uint8Array> {
  return new Uint8Array(await blob.slice(at, Math.min(at + SLICE, blob.size)).arrayBuffer());
}

/** The whole zip in memory (tests, small archives). */
export async function zipBytes(fill: (zip: ZipSink) => Promise<void>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(zipStream(fill)).arrayBuffer());
}
