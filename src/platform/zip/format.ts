/**
 * The zip container's records (PKWARE APPNOTE 6.3), written by write.ts and read by read.ts.
 * Only what Cairn writes: stored or deflated entries, names flagged UTF-8, times fixed at the
 * DOS epoch, ZIP64 only where a field overflows (entry offsets past 4 GB, more than 65,534
 * entries, a central directory past 4 GB).
 */
export const SIG = {
  local: 0x04034b50,
  descriptor: 0x08074b50,
  central: 0x02014b50,
  end: 0x06054b50,
  end64: 0x06064b50,
  locator64: 0x07064b50,
} as const;

export const FLAG = { encrypted: 0x0001, descriptor: 0x0008, strongEncryption: 0x0040, utf8: 0x0800 } as const;
/** 1980-01-01 00:00 as a DOS date (time is 0). */
export const DOS_EPOCH_DATE = (1 << 5) | 1;
/** Entries are kept under 4 GB (less deflate's worst-case growth), so no local header needs ZIP64. */
export const MAX_ENTRY_BYTES = 0xf0000000;
const U32 = 0xffffffff;
const U16 = 0xffff;
/** Unix, spec 2.0; a regular file, rw-r--r--. */
const MADE_BY = (3 << 8) | 20;
const FILE_ATTRS = (0o100644 << 16) >>> 0;

export interface CentralRecord {
  name: Uint8Array;
  method: number; // 0 stored, 8 deflated
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  descriptor: boolean;
}

export function localHeader(r: CentralRecord): Uint8Array {
  const out = new Uint8Array(30 + r.name.byteLength);
  const v = new DataView(out.buffer);
  v.setUint32(0, SIG.local, true);
  v.setUint16(4, 20, true);
  v.setUint16(6, FLAG.utf8 | (r.descriptor ? FLAG.descriptor : 0), true);
  v.setUint16(8, r.method, true);
  v.setUint16(10, 0, true);
  v.setUint16(12, DOS_EPOCH_DATE, true);
  if (!r.descriptor) {
    v.setUint32(14, r.crc >>> 0, true);
    v.setUint32(18, r.compressed, true);
    v.setUint32(22, r.size, true);
  }
  v.setUint16(26, r.name.byteLength, true);
  v.setUint16(28, 0, true);
  out.set(r.name, 30);
  return out;
}

export function dataDescriptor(r: CentralRecord): Uint8Array {
  const out = new Uint8Array(16);
  const v = new DataView(out.buffer);
  v.setUint32(0, SIG.descriptor, true);
  v.setUint32(4, r.crc >>> 0, true);
  v.setUint32(8, r.compressed, true);
  v.setUint32(12, r.size, true);
  return out;
}

/** The central directory and its end records, for a directory that starts at `start`. */
export function centralDirectory(records: CentralRecord[], start: number): Uint8Array {
  let length = 0;
  for (const r of records) length += 46 + r.name.byteLength + (r.offset >= U32 ? 12 : 0);
  const count = records.length;
  const zip64 = count >= U16 || start >= U32 || length >= U32;
  const out = new Uint8Array(length + (zip64 ? 56 + 20 : 0) + 22);
  const v = new DataView(out.buffer);
  let p = 0;
  for (const r of records) {
    const big = r.offset >= U32;
    v.setUint32(p, SIG.central, true);
    v.setUint16(p + 4, MADE_BY, true);
    v.setUint16(p + 6, big ? 45 : 20, true);
    v.setUint16(p + 8, FLAG.utf8 | (r.descriptor ? FLAG.descriptor : 0), true);
    v.setUint16(p + 10, r.method, true);
    v.setUint16(p + 12, 0, true);
    v.setUint16(p + 14, DOS_EPOCH_DATE, true);
    v.setUint32(p + 16, r.crc >>> 0, true);
    v.setUint32(p + 20, r.compressed, true);
    v.setUint32(p + 24, r.size, true);
    v.setUint16(p + 28, r.name.byteLength, true);
    v.setUint16(p + 30, big ? 12 : 0, true);
    // comment length, disk, internal attributes: 0
    v.setUint32(p + 38, FILE_ATTRS, true);
    v.setUint32(p + 42, big ? U32 : r.offset, true);
    out.set(r.name, p + 46);
    p += 46 + r.name.byteLength;
    if (big) {
      v.setUint16(p, 0x0001, true);
      v.setUint16(p + 2, 8, true);
      v.setBigUint64(p + 4, BigInt(r.offset), true);
      p += 12;
    }
  }
  if (zip64) {
    const end64At = start + length;
    v.setUint32(p, SIG.end64, true);
    v.setBigUint64(p + 4, 44n, true);
    v.setUint16(p + 12, 45, true);
    v.setUint16(p + 14, 45, true);
    // this disk, the directory's disk: 0
    v.setBigUint64(p + 24, BigInt(count), true);
    v.setBigUint64(p + 32, BigInt(count), true);
    v.setBigUint64(p + 40, BigInt(length), true);
    v.setBigUint64(p + 48, BigInt(start), true);
    p += 56;
    v.setUint32(p, SIG.locator64, true);
    v.setUint32(p + 4, 0, true);
    v.setBigUint64(p + 8, BigInt(end64At), true);
    v.setUint32(p + 16, 1, true);
    p += 20;
  }
  v.setUint32(p, SIG.end, true);
  v.setUint16(p + 8, Math.min(count, U16), true);
  v.setUint16(p + 10, Math.min(count, U16), true);
  v.setUint32(p + 12, Math.min(length, U32), true);
  v.setUint32(p + 16, Math.min(start, U32), true);
  return out;
}
