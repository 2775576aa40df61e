import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { FRAME_HEADER_SIZE, frameOffset, frameSize, type Checksum, type WalHeader } from "./wal-format";

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
    return h.getUint32(8) === hdr.salt1 && h.getUint32(12) === hdr.salt2 && h.getUint32(16) === checksum[0] && h.getUint32(20) === checksum[1];
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
