/**
 * Point-in-time restore (docs/decisions.md, "Point in time"): a backup's page-exact copy, then the
 * archived frames after its position, up to the last commit at or before `at`, written page by page
 * into the copy (Litestream's restore = snapshot + WAL segments). Every segment is checked on the
 * way: its sha256 (once closed), its salts and its cumulative checksums from the frame it chains
 * on, and that it begins where the one before ended; a gap, or an `at` outside what the archive
 * holds continuously from that base, is a NotCoveredError and nothing is guessed.
 */
import { existsSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { NotCoveredError, type WalPosition } from "./types";
import { readArchiveState } from "./wal-state";
import { segmentLast } from "./wal-coverage";
import { FRAME_HEADER_SIZE, frameSize, scanFrames } from "./wal-format";
import { listSegments, type SegmentCommit, type SegmentInfo } from "./wal-segments";

export { coverage, pruneArchive } from "./wal-coverage";
export { NotCoveredError } from "./types";

export interface RestoreToTimeOptions {
  archiveDir: string;
  /** The backup's cairn.db. */
  base: string;
  basePosition: WalPosition | null;
  /** ms; null: the backup itself. */
  at: number | null;
  out: string;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

interface Step {
  seg: SegmentInfo;
  /** Frames of the segment to apply: from..to (epoch frame numbers). */
  from: number;
  to: number;
}

const COPY_CHUNK = 1 << 20;

export async function restoreToTime(opts: RestoreToTimeOptions): Promise<{ position: WalPosition | null; lastCommitAt: number | null }> {
  const { basePosition: base, at } = opts;
  // Plan first: nothing is written when the time is not covered.
  const plan = at === null ? null : planReplay(opts.archiveDir, base, at);
  const baseBytes = await copyFile(opts.base, opts.out, opts.onProgress, opts.signal);
  if (!plan || plan.steps.length === 0) {
    await syncFile(opts.out);
    return { position: base, lastCommitAt: base ? base.committedAt : null };
  }
  const out = await open(opts.out, "r+");
  try {
    const genDir = join(opts.archiveDir, base!.generation);
    const total = plan.steps.reduce((n, s) => n + s.to - s.from + 1, 0);
    let done = 0;
    let pageSize = 0;
    for (const step of plan.steps) {
      opts.signal?.throwIfAborted();
      pageSize = step.seg.pageSize;
      const pages = await readStep(genDir, step);
      for (const [pgno, page] of pages) await out.write(page, 0, page.byteLength, (pgno - 1) * pageSize);
      done += step.to - step.from + 1;
      opts.onProgress?.(baseBytes + done, baseBytes + total);
    }
    await out.truncate(plan.target.dbSize * pageSize);
    await out.sync();
  } finally {
    await out.close();
  }
  const last = plan.steps.at(-1)!.seg;
  return {
    position: { generation: base!.generation, epoch: last.epoch, salt: last.salt, frame: plan.target.frame, committedAt: plan.target.at },
    lastCommitAt: plan.target.at,
  };
}

/** The segments and frames to apply to reach the last commit at or before `at`, checked continuous. */
export function planReplay(archiveDir: string, base: WalPosition | null, at: number): { steps: Step[]; target: SegmentCommit } {
  if (!base) throw new NotCoveredError("This backup has no position in the WAL archive: only the backup itself can be restored.");
  if (at < base.committedAt) throw new NotCoveredError("That time is before the backup was taken.");
  const genDir = join(archiveDir, base.generation);
  if (!existsSync(genDir)) throw new NotCoveredError("The archived WAL after this backup is gone (its generation was pruned).");
  const segments = listSegments(genDir).filter((s) => s.epoch > base.epoch || (s.epoch === base.epoch && segmentLast(s) > base.frame));
  const steps: Step[] = [];
  let target: SegmentCommit = { frame: base.frame, at: base.committedAt, dbSize: 0 };
  let epoch = base.epoch;
  let next = base.frame + 1;
  let reached = false;
  let lastAt = base.committedAt;
  let gap = false;
  for (const seg of segments) {
    if (seg.epoch === base.epoch && base.frame > 0 && base.salt && seg.salt !== base.salt)
      throw new NotCoveredError("The archive does not match this backup's position (another epoch under the same number).");
    // Continuous: the next frame of this epoch, or the start of the next epoch. The archive
    // writes every epoch it starts with its frames, so a later one means frames in between were
    // pruned (the archive's bound drops what only older backups needed): never replayed across.
    const follows = seg.epoch === epoch ? seg.first <= next : seg.first === 1 && seg.epoch === epoch + 1;
    if (!follows) {
      gap = true;
      break;
    }
    if (seg.epoch !== epoch) (epoch = seg.epoch), (next = 1);
    const commits = seg.commits.filter((c) => c.frame >= next && c.at <= at);
    if (commits.length > 0) {
      target = commits.at(-1)!;
      steps.push({ seg, from: next, to: target.frame });
    }
    lastAt = Math.max(lastAt, seg.commits.at(-1)?.at ?? lastAt);
    const after = seg.commits.find((c) => c.frame >= next && c.at > at);
    if (after) {
      reached = true;
      break;
    }
    next = segmentLast(seg) + 1;
  }
  if (gap && !reached && at > lastAt)
    throw new NotCoveredError(
      "The archived log after this backup has a gap (pruned to keep the archive within its " +
        "limit): restore the backup itself, or choose a later backup.",
    );
  if (!reached && at > lastAt) {
    // Past everything archived: only the current generation is known to stand still since its last commit.
    const current = readArchiveState(archiveDir)?.generation === base.generation;
    if (!current || at > Date.now()) throw new NotCoveredError("That time is past what the WAL archive holds for this backup.");
  }
  if (steps.length > 0 && target.dbSize === 0) throw new NotCoveredError("The archive's commit index is damaged.");
  return { steps, target };
}

/** The latest image of each page in the step's frames, after checking the segment end to end. */
async function readStep(genDir: string, step: Step): Promise<Map<number, Uint8Array>> {
  const { seg } = step;
  const size = frameSize(seg.pageSize);
  // A segment pruned between the plan and this read (a new base's retention, while a preview
  // copy is made outside maintenance) is not covered any more, never a failure of the server.
  const fh = await open(join(genDir, `${seg.name}.frames`), "r").catch((err: NodeJS.ErrnoException) => {
    throw err.code === "ENOENT"
      ? new NotCoveredError(`WAL segment ${seg.name} was pruned while the restore read it: choose a later backup.`)
      : err;
  });
  let bytes: Uint8Array;
  try {
    const length = (step.to - seg.first + 1) * size;
    const whole = seg.closed ? seg.closed.bytes : length;
    bytes = new Uint8Array(Math.max(whole, length));
    const { bytesRead } = await fh.read(bytes, 0, bytes.byteLength, 0);
    if (bytesRead < bytes.byteLength) throw new NotCoveredError(`WAL segment ${seg.name} is shorter than its index says.`);
  } finally {
    await fh.close();
  }
  if (seg.closed && new Bun.CryptoHasher("sha256").update(bytes.subarray(0, seg.closed.bytes)).digest("hex") !== seg.closed.sha256) {
    throw new NotCoveredError(`WAL segment ${seg.name} does not match its sha256: the archive is damaged.`);
  }
  const upTo = bytes.subarray(0, (step.to - seg.first + 1) * size);
  const run = scanFrames(upTo, seg, seg.start);
  if (run.frames !== step.to - seg.first + 1)
    throw new NotCoveredError(`WAL segment ${seg.name} fails its checksums: the archive is damaged.`);
  const pages = new Map<number, Uint8Array>();
  for (let f = step.from; f <= step.to; f++) {
    const frame = upTo.subarray((f - seg.first) * size, (f - seg.first + 1) * size);
    pages.set(new DataView(frame.buffer, frame.byteOffset, 4).getUint32(0), frame.subarray(FRAME_HEADER_SIZE));
  }
  return pages;
}

async function copyFile(
  from: string,
  to: string,
  onProgress?: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<number> {
  const src = await open(from, "r");
  const dst = await open(to, "w", 0o600);
  try {
    const total = (await src.stat()).size;
    const buf = new Uint8Array(COPY_CHUNK);
    for (let at = 0; at < total; ) {
      signal?.throwIfAborted();
      const { bytesRead } = await src.read(buf, 0, Math.min(COPY_CHUNK, total - at), at);
      if (bytesRead === 0) break;
      await dst.write(buf, 0, bytesRead, at);
      at += bytesRead;
      onProgress?.(at, total);
    }
    return total;
  } finally {
    await src.close();
    await dst.close();
  }
}

async function syncFile(path: string): Promise<void> {
  const fh = await open(path, "r+");
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
