/**
 * The WAL archive's files (Litestream's layout, simplified):
 *
 *   wal/state.json                    the current generation; where the archive stood at a clean close
 *   wal/<generation>/generation.json  when and why it began
 *   wal/<generation>/<epoch>-<first>.frames   frames exactly as SQLite wrote them (24-byte header + page)
 *   wal/<generation>/<epoch>-<first>.idx      JSON lines: the segment's header (epoch, salts, page size,
 *                                             the checksum its first frame chains from), one line per
 *                                             commit (frame, time, database size), and once the segment
 *                                             is closed, its last frame, size and sha256.
 *
 * A segment's frames are appended before its commit lines, so a crash leaves at worst frames
 * with no commit line: they are cut off when the segment is closed at the next start.
 */
import { fsyncPath, writeFileDurably } from "../durable-file";
import {
  closeSync,
  fdatasync,
  fsync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { frameSize, scanFrames, type Checksum } from "./wal-format";

export interface SegmentHeader {
  epoch: number;
  salt: string;
  salt1: number;
  salt2: number;
  pageSize: number;
  bigEndian: boolean;
  /** The first frame's number in its epoch. */
  first: number;
  /** The cumulative checksum the first frame chains from. */
  start: Checksum;
}

export interface SegmentCommit {
  frame: number;
  at: number;
  dbSize: number;
}

export interface SegmentInfo extends SegmentHeader {
  name: string;
  commits: SegmentCommit[];
  closed: { last: number; bytes: number; sha256: string } | null;
}

const BACKGROUND_SYNC_BYTES = 1 << 20;

export function segmentName(epoch: number, first: number): string {
  return `${String(epoch).padStart(6, "0")}-${String(first).padStart(10, "0")}`;
}

/** The open segment: appends frames and commit lines; close() fsyncs both and seals the index. */
export class SegmentWriter {
  readonly name: string;
  bytes = 0;
  last: number;
  private readonly frames: number;
  private readonly idx: number;
  // Bun's hasher, not node:crypto's: that import builds Node's stream classes at start.
  private readonly hash = new Bun.CryptoHasher("sha256");
  private unsynced = 0;
  private syncing = false;

  constructor(
    private readonly dir: string,
    readonly header: SegmentHeader,
  ) {
    this.name = segmentName(header.epoch, header.first);
    this.last = header.first - 1;
    this.frames = openSync(join(dir, `${this.name}.frames`), "a", 0o600);
    this.idx = openSync(join(dir, `${this.name}.idx`), "a", 0o600);
    writeSync(this.idx, JSON.stringify(header) + "\n");
  }

  /** Whole frames (the last one a commit; in one buffer or several in order), and the commits among them. */
  append(frames: Uint8Array | Uint8Array[], commits: SegmentCommit[]): void {
    let length = 0;
    for (const part of Array.isArray(frames) ? frames : [frames]) {
      writeAll(this.frames, part);
      this.hash.update(part);
      length += part.byteLength;
    }
    this.bytes += length;
    this.unsynced += length;
    // Written to disk as it grows, off the event loop: the fsync that closes the segment (before
    // a backup's manifest, at 16 MB) then finds little left to write instead of holding the
    // event loop ~200 ms for 16 MB. Its own result is the one that counts: errors here are not.
    if (this.unsynced >= BACKGROUND_SYNC_BYTES && !this.syncing) {
      this.unsynced = 0;
      this.syncing = true;
      fdatasync(this.frames, () => (this.syncing = false));
    }
    this.last += length / frameSize(this.header.pageSize);
    writeSync(this.idx, commits.map((c) => JSON.stringify({ f: c.frame, t: c.at, n: c.dbSize })).join("\n") + "\n");
  }

  close(): void {
    this.closeWith((fd, then) => {
      fsyncSync(fd);
      then();
    });
  }

  /** The closing steps, each fsync through `sync` (which calls `then` once it is done). */
  closeWith(sync: (fd: number, then: () => void) => void, onClosed?: () => void): void {
    const closing = JSON.stringify({ closed: true, last: this.last, bytes: this.bytes, sha256: this.hash.digest("hex") }) + "\n";
    sync(this.frames, () => {
      closeSync(this.frames);
      writeSync(this.idx, closing);
      sync(this.idx, () => {
        closeSync(this.idx);
        const dir = openSync(this.dir, "r");
        sync(dir, () => {
          closeSync(dir);
          onClosed?.();
        });
      });
    });
  }
}

/** writeSync until every byte is written (it may write fewer than asked). */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.byteLength; ) done += writeSync(fd, bytes, done, bytes.byteLength - done);
}

/**
 * close() with the fsyncs off the event loop (a segment ends at every restart of the log: with
 * its three fsyncs on the main thread, each restart cost writers several milliseconds). The
 * closing line is written only once the frames are on disk, as close() does; until then the
 * segment reads as open (its commit lines stand), and a process that stops first leaves it to
 * the sealing at the next start.
 */
export function closeSegmentInBackground(seg: SegmentWriter, onError: (err: unknown) => void, onDone?: () => void): void {
  // A step that throws (its folder removed meanwhile) is reported, never thrown out of a callback.
  const step = (then: () => void) => {
    try {
      then();
    } catch (err) {
      onError(err);
    }
  };
  step(() => seg.closeWith((fd, then) => fsync(fd, (err) => (err ? onError(err) : step(then))), onDone));
}

/** Writes a small JSON file whole or not at all (temp file, fsync, rename, fsync the folder). */
export const writeJsonDurably = (path: string, value: unknown): void => writeFileDurably(path, JSON.stringify(value, null, 2) + "\n");

/** A generation's segments in order (epoch, first frame); an index whose header is torn is skipped. */
export function listSegments(genDir: string): SegmentInfo[] {
  const names = readdirSync(genDir)
    .filter((n) => n.endsWith(".idx"))
    .sort();
  const out: SegmentInfo[] = [];
  for (const file of names) {
    const lines = readFileSync(join(genDir, file), "utf8").split("\n");
    let header: SegmentHeader;
    try {
      header = JSON.parse(lines[0]) as SegmentHeader;
    } catch {
      continue;
    }
    const info: SegmentInfo = { ...header, name: file.slice(0, -4), commits: [], closed: null };
    for (const line of lines.slice(1)) {
      if (!line) continue;
      let row: { f?: number; t?: number; n?: number; closed?: boolean; last?: number; bytes?: number; sha256?: string };
      try {
        row = JSON.parse(line);
      } catch {
        break; // a torn last line
      }
      if (row.closed) info.closed = { last: row.last!, bytes: row.bytes!, sha256: row.sha256! };
      else info.commits.push({ frame: row.f!, at: row.t!, dbSize: row.n! });
    }
    out.push(info);
  }
  return out;
}

/**
 * Seals a segment a crash left open: keeps the frames up to the last commit that both validates
 * and has its commit line, cuts the rest, and writes the closing line.
 */
export function sealSegment(genDir: string, seg: SegmentInfo): void {
  const framesPath = join(genDir, `${seg.name}.frames`);
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(framesPath));
  } catch {
    bytes = new Uint8Array(0);
  }
  const run = scanFrames(bytes, seg, seg.start);
  const valid = seg.first - 1 + run.frames;
  const commits = seg.commits.filter((c) => c.frame <= valid);
  const last = commits.at(-1)?.frame ?? seg.first - 1;
  const keep = (last - seg.first + 1) * frameSize(seg.pageSize);
  truncateSync(framesPath, keep);
  const sha256 = new Bun.CryptoHasher("sha256").update(bytes.subarray(0, keep)).digest("hex");
  // Rewrite the index whole: the commit lines past the cut (or torn) must not stay.
  const lines = [
    JSON.stringify(headerOf(seg)),
    ...commits.map((c) => JSON.stringify({ f: c.frame, t: c.at, n: c.dbSize })),
    JSON.stringify({ closed: true, last, bytes: keep, sha256 }),
  ];
  const idxPath = join(genDir, `${seg.name}.idx`);
  const tmp = `${idxPath}.tmp`;
  writeFileSync(tmp, lines.join("\n") + "\n", { mode: 0o600 });
  const fd = openSync(tmp, "r");
  fsyncSync(fd);
  closeSync(fd);
  renameSync(tmp, idxPath);
  fsyncPath(genDir);
}

function headerOf(seg: SegmentInfo): SegmentHeader {
  const { epoch, salt, salt1, salt2, pageSize, bigEndian, first, start } = seg;
  return { epoch, salt, salt1, salt2, pageSize, bigEndian, first, start };
}
