/**
 * SQLite's write-ahead log, as https://www.sqlite.org/fileformat2.html#walformat describes it.
 *
 * A WAL file is a 32-byte header and then frames: a 24-byte frame header and one page. The
 * header's two salts name the log's current "epoch" (they change every time the log restarts
 * from its beginning); every frame repeats them, and carries a checksum that is cumulative over
 * the header and every frame before it. A frame whose salts or checksum do not follow is not part
 * of the log (a torn write, or an older epoch's frame left in the file), and so is everything
 * after it. A frame whose "database size" field is not zero is a commit: the transaction's last
 * frame, and the size of the database, in pages, once it is applied.
 */

export const WAL_HEADER_SIZE = 32;
export const FRAME_HEADER_SIZE = 24;
const MAGIC_LE = 0x377f0682;
const MAGIC_BE = 0x377f0683;

export type Checksum = readonly [number, number];

export interface WalHeader {
  /** Checksums are computed on big-endian words (magic 0x377f0683) rather than little-endian ones. */
  bigEndian: boolean;
  pageSize: number;
  checkpointSeq: number;
  salt1: number;
  salt2: number;
  /** The header's own checksum: where the first frame's cumulative checksum starts. */
  checksum: Checksum;
}

/** The epoch's name as positions record it: both salts, 16 hex digits. */
export function saltHex(h: { salt1: number; salt2: number }): string {
  return h.salt1.toString(16).padStart(8, "0") + h.salt2.toString(16).padStart(8, "0");
}

/**
 * SQLite's walChecksumBytes: over 32-bit words taken two at a time,
 * s0 += x0 + s1; s1 += x1 + s0 (mod 2^32), starting from the previous checksum.
 */
const NATIVE_LITTLE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export function walChecksum(bigEndian: boolean, bytes: Uint8Array, start: Checksum): [number, number] {
  if (bigEndian !== !NATIVE_LITTLE || bytes.byteOffset % 4 !== 0) return walChecksumPortable(bigEndian, bytes, start);
  // The common case (the log's byte order is this machine's): whole words, no per-word decoding.
  // Signed words and `| 0` after each addition keep every value a 32-bit integer (the sums mod
  // 2^32 are the same bits): with unsigned words and `>>> 0` the engine computed in doubles,
  // 9 µs a 4 KB frame against 1 µs, which made the archive cost more than the COMMIT it follows.
  const words = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
  let s0 = start[0] | 0;
  let s1 = start[1] | 0;
  const n = words.length;
  for (let i = 0; i < n; i += 2) {
    s0 = (((s0 + words[i]) | 0) + s1) | 0;
    s1 = (((s1 + words[i + 1]) | 0) + s0) | 0;
  }
  return [s0 >>> 0, s1 >>> 0];
}

function walChecksumPortable(bigEndian: boolean, bytes: Uint8Array, start: Checksum): [number, number] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = !bigEndian;
  let s0 = start[0];
  let s1 = start[1];
  for (let i = 0; i < bytes.byteLength; i += 8) {
    s0 = (s0 + view.getUint32(i, little) + s1) >>> 0;
    s1 = (s1 + view.getUint32(i + 4, little) + s0) >>> 0;
  }
  return [s0, s1];
}

/** The header, or null when the file is shorter than one or it is not a valid WAL header. */
export function parseWalHeader(buf: Uint8Array): WalHeader | null {
  if (buf.byteLength < WAL_HEADER_SIZE) return null;
  const view = new DataView(buf.buffer, buf.byteOffset, WAL_HEADER_SIZE);
  const magic = view.getUint32(0);
  if (magic !== MAGIC_LE && magic !== MAGIC_BE) return null;
  if (view.getUint32(4) !== 3007000) return null;
  const bigEndian = magic === MAGIC_BE;
  const rawPageSize = view.getUint32(8);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return null;
  const checksum: Checksum = [view.getUint32(24), view.getUint32(28)];
  const computed = walChecksum(bigEndian, buf.subarray(0, 24), [0, 0]);
  if (computed[0] !== checksum[0] || computed[1] !== checksum[1]) return null;
  return { bigEndian, pageSize, checkpointSeq: view.getUint32(12), salt1: view.getUint32(16), salt2: view.getUint32(20), checksum };
}

export function frameSize(pageSize: number): number {
  return FRAME_HEADER_SIZE + pageSize;
}

/** Where frame `n` (1-based) begins in a WAL file. */
export function frameOffset(pageSize: number, n: number): number {
  return WAL_HEADER_SIZE + (n - 1) * frameSize(pageSize);
}

export interface FrameInfo {
  pgno: number;
  /** Database size in pages after this commit; 0 when the frame is not a commit. */
  dbSize: number;
  checksum: Checksum;
}

/** Reads one frame header and checks it follows `prev` in the epoch `salts`; null when it does not. */
export function checkFrame(frame: Uint8Array, header: Pick<WalHeader, "bigEndian" | "salt1" | "salt2">, prev: Checksum): FrameInfo | null {
  const view = new DataView(frame.buffer, frame.byteOffset, FRAME_HEADER_SIZE);
  if (view.getUint32(8) !== header.salt1 || view.getUint32(12) !== header.salt2) return null;
  const pgno = view.getUint32(0);
  if (pgno === 0) return null;
  let sum = walChecksum(header.bigEndian, frame.subarray(0, 8), prev);
  sum = walChecksum(header.bigEndian, frame.subarray(FRAME_HEADER_SIZE), sum);
  if (sum[0] !== view.getUint32(16) || sum[1] !== view.getUint32(20)) return null;
  return { pgno, dbSize: view.getUint32(4), checksum: sum };
}

export interface ScannedRun {
  /** Frames (counted from the buffer's start) up to and including the last commit found. */
  frames: number;
  /** Each commit in the run: its 1-based index in the buffer and the database size after it. */
  commits: Array<{ index: number; dbSize: number }>;
  /** The cumulative checksum after the last commit (where the next frame's chain starts). */
  checksum: Checksum;
  /** Frames that follow the chain, committed or not (less than the buffer holds: the chain ended in it). */
  valid: number;
  /** The cumulative checksum after the last frame that follows (where a scan of what comes next starts). */
  chain: Checksum;
}

/**
 * The committed frames at the start of `buf` (whole frames, in order): stops at the first frame
 * that does not follow, and leaves out the frames after the last commit (a transaction not
 * committed yet, or rolled back).
 */
export function scanFrames(
  buf: Uint8Array,
  header: Pick<WalHeader, "bigEndian" | "salt1" | "salt2" | "pageSize">,
  start: Checksum,
): ScannedRun {
  const size = frameSize(header.pageSize);
  const commits: Array<{ index: number; dbSize: number }> = [];
  let prev: Checksum = start;
  let committed: Checksum = start;
  let frames = 0;
  let valid = 0;
  for (let i = 0; (i + 1) * size <= buf.byteLength; i++) {
    const info = checkFrame(buf.subarray(i * size, (i + 1) * size), header, prev);
    if (!info) break;
    valid = i + 1;
    prev = info.checksum;
    if (info.dbSize !== 0) {
      commits.push({ index: i + 1, dbSize: info.dbSize });
      committed = info.checksum;
      frames = i + 1;
    }
  }
  return { frames, commits, checksum: committed, valid, chain: prev };
}

/** The page number a frame (header included) carries. */
export function framePage(frame: Uint8Array): number {
  return new DataView(frame.buffer, frame.byteOffset, 4).getUint32(0);
}

/** The database's page size from its header (offset 16; 1 means 65536). */
export function dbPageSize(header: Uint8Array): number {
  const raw = (header[16] << 8) | header[17];
  return raw === 1 ? 65536 : raw;
}

/**
 * `now` is the header SQLite writes `n` restarts after `before`, and no more. Salt-1 alone counts
 * them: each restart adds 1 to it in the shared wal-index header. The checkpoint sequence does
 * not: each connection writes its own counter (seen: our header at sequence 1, Litestream's
 * next one at 4, one restart apart), so it told restarts apart only while one connection did
 * them all.
 */
export function restartsBetween(before: WalHeader, now: WalHeader, n: number): boolean {
  return now.salt1 === (before.salt1 + n) >>> 0;
}
