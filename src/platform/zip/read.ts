/**
 * Reads an uploaded zip from disk without trusting it. The central directory is read first and
 * every path and every limit is checked BEFORE a byte is inflated: zip-slip paths, absolute
 * paths, backslashes, drive letters, control characters, symlinks, encrypted entries,
 * duplicates, too many entries, declared sizes over the limits, compression ratios of a bomb.
 * Inflating then stops at an entry's declared size: a header that lies is a refusal, never a
 * memory blow-up. Entries are read on demand: a small one (up to 1 MB, most of a pack) in one
 * read, inflated by the runtime's zlib with its output capped at the declared size; a larger one
 * a slice of the file at a time, inflated by fflate in 4 KB steps.
 */
import { crc32, inflateRawSync } from "node:zlib";
import { Inflate } from "fflate";
import { FLAG, SIG } from "./format";

export interface ZipLimits {
  maxEntries: number;
  maxTotalBytes: number;
  /** Uncompressed ÷ compressed, checked on entries over 1 MB (small files compress well legitimately). */
  maxRatio: number;
  maxEntryBytes: number;
}

export const IMPORT_LIMITS: ZipLimits = {
  maxEntries: 20_000,
  maxTotalBytes: 2 * 1024 ** 3,
  maxRatio: 100,
  maxEntryBytes: 200 * 1024 ** 2,
};

const RATIO_FLOOR = 1024 * 1024;

/** The archive is refused; `reason` says why in words a user can act on, `path` names the entry. */
export class ZipRefused extends Error {
  constructor(
    readonly reason: string,
    readonly path?: string,
  ) {
    super(path === undefined ? reason : `${reason}: ${path}`);
    this.name = "ZipRefused";
  }
}

export interface ZipEntry {
  /** Normalised: NFC, `/` separators, no `.` or empty segments. */
  path: string;
  /** The declared uncompressed size (inflating more than this is refused). */
  size: number;
  read(): Promise<Uint8Array>;
  text(): Promise<string>;
  /** The bytes in slices, for streaming into the blob store. */
  chunks(): AsyncIterable<Uint8Array>;
}

export interface OpenedZip {
  /** Files only (directory entries are checked, then left out), in the archive's order. */
  entries: ZipEntry[];
  get(path: string): ZipEntry | undefined;
}

interface Raw {
  path: string;
  nameLength: number;
  flags: number;
  method: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

export async function openZip(file: string, limits: ZipLimits = IMPORT_LIMITS): Promise<OpenedZip> {
  const blob = Bun.file(file);
  const fileSize = blob.size;
  const dir = await locateDirectory(blob, fileSize, limits);
  const cd = new DataView(await blob.slice(dir.offset, dir.offset + dir.length).arrayBuffer());
  const raws: Raw[] = [];
  const seen = new Set<string>();
  let total = 0;
  let p = 0;
  for (let i = 0; i < dir.count; i++) {
    if (p + 46 > cd.byteLength || cd.getUint32(p, true) !== SIG.central) throw new ZipRefused("the zip's central directory is damaged");
    const madeBy = cd.getUint16(p + 4, true);
    const flags = cd.getUint16(p + 8, true);
    const method = cd.getUint16(p + 10, true);
    const crc = cd.getUint32(p + 16, true);
    let compressed = cd.getUint32(p + 20, true);
    let size = cd.getUint32(p + 24, true);
    const nameLength = cd.getUint16(p + 28, true);
    const extraLength = cd.getUint16(p + 30, true);
    const commentLength = cd.getUint16(p + 32, true);
    const external = cd.getUint32(p + 38, true);
    let offset = cd.getUint32(p + 42, true);
    const end = p + 46 + nameLength + extraLength + commentLength;
    if (end > cd.byteLength) throw new ZipRefused("the zip's central directory is damaged");
    const nameBytes = new Uint8Array(cd.buffer, p + 46, nameLength);
    const rawName = decodeName(nameBytes, flags);
    // ZIP64: the fields at their maximum are in the extra field 0x0001, in this order.
    if (size === 0xffffffff || compressed === 0xffffffff || offset === 0xffffffff) {
      const z = zip64Extra(new DataView(cd.buffer, p + 46 + nameLength, extraLength));
      if (!z) throw new ZipRefused("the zip's central directory is damaged", rawName);
      let at = 0;
      const next = () => {
        at += 8;
        return z.at(at - 8);
      };
      if (size === 0xffffffff) size = next();
      if (compressed === 0xffffffff) compressed = next();
      if (offset === 0xffffffff) offset = next();
    }
    p = end;

    const path = checkPath(rawName);
    if (flags & (FLAG.encrypted | FLAG.strongEncryption)) throw new ZipRefused("encrypted entries are not accepted", path);
    const unixMode = madeBy >> 8 === 3 ? external >>> 16 : 0;
    if ((unixMode & 0o170000) === 0o120000) throw new ZipRefused("symbolic links are not accepted", path);
    const isDir = rawName.endsWith("/") || (unixMode & 0o170000) === 0o040000;
    if (seen.has(path)) throw new ZipRefused("the same path appears twice", path);
    seen.add(path);
    if (isDir) {
      if (size !== 0) throw new ZipRefused("a folder entry holds data", path);
      continue;
    }
    if (method !== 0 && method !== 8)
      throw new ZipRefused(`compression method ${method} is not supported (only stored and deflated)`, path);
    if (size > limits.maxEntryBytes)
      throw new ZipRefused(`an entry is too large (${mb(size)} uncompressed, at most ${mb(limits.maxEntryBytes)})`, path);
    total += size;
    if (total > limits.maxTotalBytes) throw new ZipRefused(`the archive is too large uncompressed (over ${mb(limits.maxTotalBytes)})`);
    if (size > RATIO_FLOOR && size > compressed * limits.maxRatio)
      throw new ZipRefused(`an entry's compression ratio is too high (over ${limits.maxRatio}:1, a zip bomb)`, path);
    if (method === 0 && compressed !== size) throw new ZipRefused("a stored entry's sizes disagree", path);
    if (offset + 30 + compressed > dir.offset) throw new ZipRefused("an entry's data runs past the archive", path);
    raws.push({ path, nameLength, flags, method, crc, compressed, size, offset });
  }
  const entries = raws.map((raw) => entryOf(blob, raw, dir.offset, raw.nameLength));
  const byPath = new Map(entries.map((e) => [e.path, e]));
  return { entries, get: (path) => byPath.get(path) };
}

async function locateDirectory(blob: Blob, fileSize: number, limits: ZipLimits) {
  const notZip = () => new ZipRefused("the file is not a zip archive");
  if (fileSize < 22) throw notZip();
  const tailStart = Math.max(0, fileSize - (22 + 0xffff));
  const tail = new DataView(await blob.slice(tailStart, fileSize).arrayBuffer());
  let at = -1;
  for (let i = tail.byteLength - 22; i >= 0; i--) {
    if (tail.getUint32(i, true) === SIG.end && i + 22 + tail.getUint16(i + 20, true) <= tail.byteLength) {
      at = i;
      break;
    }
  }
  if (at < 0) throw notZip();
  if (tail.getUint16(at + 4, true) !== 0 || tail.getUint16(at + 6, true) !== 0)
    throw new ZipRefused("split (multi-part) zips are not accepted");
  let count = tail.getUint16(at + 10, true);
  let length = tail.getUint32(at + 12, true);
  let offset = tail.getUint32(at + 16, true);
  let end = tailStart + at;
  if (count === 0xffff || length === 0xffffffff || offset === 0xffffffff) {
    const loc = at - 20;
    if (loc >= 0 && tail.getUint32(loc, true) === SIG.locator64) {
      const end64 = Number(tail.getBigUint64(loc + 8, true));
      if (end64 + 56 > tailStart + loc) throw new ZipRefused("the zip's central directory is damaged");
      const rec = new DataView(await blob.slice(end64, end64 + 56).arrayBuffer());
      if (rec.getUint32(0, true) !== SIG.end64) throw new ZipRefused("the zip's central directory is damaged");
      count = Number(rec.getBigUint64(32, true));
      length = Number(rec.getBigUint64(40, true));
      offset = Number(rec.getBigUint64(48, true));
      end = end64;
    }
  }
  if (count > limits.maxEntries) throw new ZipRefused(`the archive has too many entries (${count}, at most ${limits.maxEntries})`);
  if (offset + length > end) throw new ZipRefused("the zip's central directory is damaged");
  // A record is at least 46 bytes; a directory far larger than its entries need is not ours to read.
  if (length > count * (46 + 3 * 0xffff)) throw new ZipRefused("the zip's central directory is damaged");
  return { count, length, offset };
}

function zip64Extra(extra: DataView): { at(i: number): number } | null {
  for (let p = 0; p + 4 <= extra.byteLength; ) {
    const id = extra.getUint16(p, true);
    const len = extra.getUint16(p + 2, true);
    if (id === 0x0001) {
      const body = new DataView(extra.buffer, extra.byteOffset + p + 4, Math.min(len, extra.byteLength - p - 4));
      return {
        at: (i) => {
          if (i + 8 > body.byteLength) throw new ZipRefused("the zip's central directory is damaged");
          return Number(body.getBigUint64(i, true));
        },
      };
    }
    p += 4 + len;
  }
  return null;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const latin1 = new TextDecoder("latin1");

function decodeName(bytes: Uint8Array, flags: number): string {
  if (flags & FLAG.utf8) {
    try {
      return utf8.decode(bytes);
    } catch {
      throw new ZipRefused("an entry's name is not valid UTF-8");
    }
  }
  try {
    return utf8.decode(bytes); // most tools write UTF-8 without the flag
  } catch {
    return latin1.decode(bytes);
  }
}

/** The path normalised (NFC, no `.` or empty segments), or a refusal naming what is wrong. */
export function checkPath(name: string): string {
  const shown = JSON.stringify(name);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new ZipRefused("a path holds a control character", shown);
  if (name.includes("\\")) throw new ZipRefused("a path holds a backslash", name);
  if (name.startsWith("/")) throw new ZipRefused("an absolute path", name);
  if (/^[A-Za-z]:/.test(name)) throw new ZipRefused("a path starts with a drive letter", name);
  const segments = name
    .normalize("NFC")
    .split("/")
    .filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) throw new ZipRefused("a path leaves the archive (..)", name);
  if (segments.length === 0) throw new ZipRefused("an entry has an empty path", shown);
  return segments.join("/");
}

const READ_BYTES = 1 << 20;
// Deflate expands at most ~1032×: 4 KB of input is at most ~4 MB out before the size check runs.
const INFLATE_INPUT = 4 * 1024;

/** Entries this small are read in one go and inflated natively (most of a pack: its pages). */
const SMALL_ENTRY = 1 << 20;
/** Room read past the name for the local header's extra field (read again when it is longer). */
const EXTRA_GUESS = 256;

function entryOf(blob: Blob, raw: Raw, directoryAt: number, nameLength: number): ZipEntry {
  /** The entry's local header and data, read in one slice of the file when the entry is small. */
  async function locate(): Promise<{ start: number; data: Uint8Array | null }> {
    const small = raw.compressed <= SMALL_ENTRY && raw.size <= SMALL_ENTRY;
    const guess = 30 + nameLength + EXTRA_GUESS + (small ? raw.compressed : 0);
    const bytes = new Uint8Array(await blob.slice(raw.offset, Math.min(raw.offset + guess, directoryAt)).arrayBuffer());
    const head = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (head.byteLength < 30 || head.getUint32(0, true) !== SIG.local) throw new ZipRefused("an entry's header is damaged", raw.path);
    const skip = 30 + head.getUint16(26, true) + head.getUint16(28, true);
    const start = raw.offset + skip;
    if (start + raw.compressed > directoryAt) throw new ZipRefused("an entry's data runs past the archive", raw.path);
    return { start, data: small && skip + raw.compressed <= bytes.byteLength ? bytes.subarray(skip, skip + raw.compressed) : null };
  }

  /** A small entry whole: inflated by the runtime's zlib, which stops at the declared size. */
  function whole(data: Uint8Array): Uint8Array {
    let out: Uint8Array = data;
    if (raw.method === 8) {
      try {
        out = inflateRawSync(data, { maxOutputLength: Math.max(1, raw.size) });
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === "ERR_BUFFER_TOO_LARGE") throw new ZipRefused("an entry inflates past its declared size", raw.path);
        throw new ZipRefused("an entry's compressed data is damaged", raw.path);
      }
    }
    if (out.byteLength > raw.size) throw new ZipRefused("an entry inflates past its declared size", raw.path);
    if (out.byteLength < raw.size) throw new ZipRefused("an entry is shorter than its declared size", raw.path);
    if (crc32(out) >>> 0 !== raw.crc >>> 0) throw new ZipRefused("an entry's checksum does not match", raw.path);
    return out;
  }

  async function* chunks(located?: { start: number; data: Uint8Array | null }): AsyncGenerator<Uint8Array> {
    const { start, data } = located ?? (await locate());
    if (data) {
      yield whole(data);
      return;
    }
    let produced = 0;
    let crc = 0;
    const out: Uint8Array[] = [];
    const inflate = new Inflate((chunk) => {
      produced += chunk.byteLength;
      if (produced > raw.size) throw new ZipRefused("an entry inflates past its declared size", raw.path);
      out.push(chunk);
    });
    for (let at = 0; at < raw.compressed || (at === 0 && raw.method === 8); at += READ_BYTES) {
      const part = new Uint8Array(await blob.slice(start + at, start + Math.min(raw.compressed, at + READ_BYTES)).arrayBuffer());
      if (raw.method === 0) {
        produced += part.byteLength;
        crc = crc32(part, crc);
        yield part;
        continue;
      }
      const last = at + READ_BYTES >= raw.compressed;
      for (let q = 0; q < part.byteLength || q === 0; q += INFLATE_INPUT) {
        try {
          inflate.push(part.subarray(q, q + INFLATE_INPUT), last && q + INFLATE_INPUT >= part.byteLength);
        } catch (err) {
          if (err instanceof ZipRefused) throw err;
          throw new ZipRefused("an entry's compressed data is damaged", raw.path);
        }
        for (const c of out.splice(0)) {
          crc = crc32(c, crc);
          yield c;
        }
        if (part.byteLength === 0) break;
      }
    }
    if (produced !== raw.size) throw new ZipRefused("an entry is shorter than its declared size", raw.path);
    if (crc >>> 0 !== raw.crc >>> 0) throw new ZipRefused("an entry's checksum does not match", raw.path);
  }
  async function read(): Promise<Uint8Array> {
    const located = await locate();
    // A small entry is one piece already: no copy of it (a pack reads thousands, each twice,
    // and every copy is garbage until the next collection).
    if (located.data) return whole(located.data);
    const out = new Uint8Array(raw.size);
    let at = 0;
    for await (const c of chunks(located)) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }
  return {
    path: raw.path,
    size: raw.size,
    read,
    chunks: () => chunks(),
    text: async () => new TextDecoder().decode(await read()),
  };
}

function mb(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${+(bytes / 1024 ** 3).toFixed(1)} GB` : `${+(bytes / 1024 ** 2).toFixed(1)} MB`;
}
