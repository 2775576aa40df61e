import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { FRAME_HEADER_SIZE, frameOffset, frameSize, scanFrames, type Checksum, type WalHeader } from "./wal-format";

/**
 * The log (cairn.db-wal) as the archive reads it: one read-only descriptor, opened when first
 * needed (the log may not exist yet) and kept, so a commit's observe costs an fstat and a pread.
 */
export class WalFile {
  private fd: number | null = null;

  constructor(private readonly path: string) {}

  /** Size and modification time; zero when the log does not exist yet. */
  stat(): { size: bigint; mtimeNs: bigint } {
    if (this.fd === null) {
      try {
        this.fd = openSync(this.path, "r");
      } catch {
        return { size: 0n, mtimeNs: 0n };
      }
    }
    const st = fstatSync(this.fd, { bigint: true });
    return { size: st.size, mtimeNs: st.mtimeNs };
  }

  /** Up to `length` bytes from `offset` (fewer at the file's end). Only after stat() opened it. */
  readAt(offset: number, length: number): Uint8Array {
    // Not zero-filled first (every byte is read over or cut off); never pooled, so word-aligned.
    const buf: Uint8Array = Buffer.allocUnsafeSlow(length);
    let got = 0;
    while (got < length) {
      const n = readSync(this.fd!, buf, got, length - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    return got === length ? buf : buf.subarray(0, got);
  }

  /** Frame `frame` of the epoch `hdr` is in the file with this checksum (its salts and sums unchanged). */
  holdsFrame(hdr: WalHeader, frame: number, checksum: Checksum, size: number): boolean {
    const off = frameOffset(hdr.pageSize, frame);
    if (off + frameSize(hdr.pageSize) > size) return false;
    const h = new DataView(this.readAt(off, FRAME_HEADER_SIZE).buffer);
    return (
      h.getUint32(8) === hdr.salt1 && h.getUint32(12) === hdr.salt2 && h.getUint32(16) === checksum[0] && h.getUint32(20) === checksum[1]
    );
  }

  /**
   * The committed frames of epoch `hdr` from frame `first` on (whose chain starts at `start`), as
   * slices of what was read (no copy into one buffer); null when none is committed yet. The file
   * often goes on past the log's end (an older epoch's frames): it reads `firstRead` frames, and
   * more only while the chain goes on, so a commit costs a small read, not the file's tail; each
   * read goes on from where the last one stopped (frames are read and checked once).
   */
  readCommitted(hdr: WalHeader, first: number, size: number, start: Checksum, firstRead: number) {
    const fsize = frameSize(hdr.pageSize);
    const from = frameOffset(hdr.pageSize, first);
    const whole = Math.floor((size - from) / fsize);
    if (whole <= 0) return null;
    const chunks: Uint8Array[] = [];
    const commits: Array<{ index: number; dbSize: number }> = [];
    let scanned = 0;
    let committed = 0;
    let checksum = start;
    let chain = start;
    for (let n = Math.min(whole, Math.max(8, firstRead)); n > 0; n = Math.min(whole - scanned, n * 4)) {
      const chunk = this.readAt(from + scanned * fsize, n * fsize);
      const run = scanFrames(chunk, hdr, chain);
      for (const c of run.commits) commits.push({ index: scanned + c.index, dbSize: c.dbSize });
      if (run.frames > 0) (committed = scanned + run.frames), (checksum = run.checksum);
      chunks.push(chunk);
      scanned += run.valid;
      chain = run.chain;
      if (run.valid < n) break;
    }
    if (committed === 0) return null;
    const parts: Uint8Array[] = [];
    for (let i = 0, done = 0; i < chunks.length && done < committed; done += chunks[i].byteLength / fsize, i++) {
      parts.push(chunks[i].subarray(0, Math.min(chunks[i].byteLength, (committed - done) * fsize)));
    }
    return { parts, frames: committed, commits, checksum };
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
