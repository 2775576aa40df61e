/**
 * The upload memory figure (docs/decisions.md, "Upload memory"): the server's resident memory
 * (VmRSS) while one 20 MB file is uploaded (multipart, field `file`, POST
 * /api/pages/{id}/attachments). The body is streamed from the bench process, chunk by chunk as the
 * connection takes it, so neither side needs the whole file in memory; RSS is sampled every 5 ms
 * during the upload.
 *
 * Three uploads in a row to different pages, judged by the median, so one reading disturbed by
 * something else in the process (a collection, the allocator returning memory) decides
 * nothing; all three are printed. The same upload to the baseline server (a bare Bun.serve
 * that reads the body and frees each chunk) is printed beside them: the runtime's own share.
 */
import { rssMb } from "./procs";
import type { BenchContext } from "./scenarios";

export const UPLOAD_BYTES = 20 * 1024 * 1024;
export const UPLOAD_RSS_TARGET_MB = 10;
const CHUNK = 256 * 1024;
const SAMPLE_MS = 5;
const TIMEOUT_MS = 60_000;

export const UPLOAD_RUNS = 3;

export interface UploadSeries {
  runs: UploadFigures[];
  medianGrowthMb: number;
  /** The same upload to the baseline server (bare Bun.serve reading and freeing the body). */
  bareBunGrowthMb: number;
  met: boolean;
}

/** UPLOAD_RUNS uploads to Cairn (to different pages), then one to the bare Bun server. */
export async function measureUploads(
  ctx: BenchContext,
  serverPid: number,
  pageIds: string[],
  bare: { url: string; pid: number },
): Promise<UploadSeries> {
  const runs: UploadFigures[] = [];
  for (let i = 0; i < UPLOAD_RUNS; i++) runs.push(await measureUpload(ctx, serverPid, pageIds[i]));
  const sorted = runs.map((r) => r.uploadRssGrowthMb).sort((a, b) => a - b);
  const medianGrowthMb = sorted[Math.floor(sorted.length / 2)];
  const bareBun = await measureUpload({ ...ctx, baseUrl: bare.url, auth: () => ({}) }, bare.pid, "bare");
  return { runs, medianGrowthMb, bareBunGrowthMb: bareBun.uploadRssGrowthMb, met: medianGrowthMb < UPLOAD_RSS_TARGET_MB };
}

export interface UploadFigures {
  uploadMb: number;
  uploadSeconds: number;
  rssBeforeMb: number;
  /** Highest reading during the upload minus the reading before. */
  uploadRssGrowthMb: number;
  /** Reading 1 s after the answer minus the reading before. */
  uploadRssAfterGrowthMb: number;
  met: boolean;
}

/** Pseudo-random bytes (xorshift), so the file is not one repeated pattern. */
function chunkOf(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed | 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

function multipartStream(boundary: string): { body: ReadableStream<Uint8Array>; length: number } {
  const enc = new TextEncoder();
  const head = enc.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; ` +
      `filename="bench-20mb.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = enc.encode(`\r\n--${boundary}--\r\n`);
  const block = chunkOf(CHUNK, 0x9e3779b9);
  let sent = 0;
  let n = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(head);
    },
    pull(controller) {
      if (sent >= UPLOAD_BYTES) {
        controller.enqueue(tail);
        controller.close();
        return;
      }
      const size = Math.min(CHUNK, UPLOAD_BYTES - sent);
      const chunk = block.slice(0, size);
      // A counter in each chunk: no two chunks are the same.
      new DataView(chunk.buffer).setUint32(0, n++);
      sent += size;
      controller.enqueue(chunk);
    },
  });
  return { body, length: head.length + UPLOAD_BYTES + tail.length };
}

export async function measureUpload(ctx: BenchContext, serverPid: number, pageId: string): Promise<UploadFigures> {
  await Bun.sleep(500);
  const before = rssMb(serverPid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(serverPid))), SAMPLE_MS);
  const boundary = `cairn-bench-${Date.now()}`;
  const { body, length } = multipartStream(boundary);
  const t0 = performance.now();
  try {
    const res = await fetch(`${ctx.baseUrl}/api/pages/${pageId}/attachments`, {
      method: "POST",
      headers: { ...ctx.auth(), "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(length) },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${text.slice(0, 300)}`);
    const size = JSON.parse(text).size;
    if (size !== undefined && size !== UPLOAD_BYTES) throw new Error(`upload: stored ${size} bytes, sent ${UPLOAD_BYTES}`);
  } finally {
    clearInterval(sampler);
  }
  const uploadSeconds = (performance.now() - t0) / 1000;
  peak = Math.max(peak, rssMb(serverPid));
  await Bun.sleep(1_000);
  const after = rssMb(serverPid);
  const growth = peak - before;
  return {
    uploadMb: UPLOAD_BYTES / 1024 / 1024,
    uploadSeconds,
    rssBeforeMb: before,
    uploadRssGrowthMb: growth,
    uploadRssAfterGrowthMb: after - before,
    met: growth < UPLOAD_RSS_TARGET_MB,
  };
}
