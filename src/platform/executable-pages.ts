import { closeSync, openSync, readFileSync, readlinkSync, readSync } from "node:fs";

/**
 * Gives back the resident pages of the executable's read-only mappings (its machine code and
 * constants) once the server is quiet. A started server has touched some 45 MB of them (Bun's
 * runtime start, SQLite creating the schema, composing the routes) and keeps them in its RSS
 * although an idle server runs none of that code; a bare Bun.serve binary holds ~25 MB of them.
 * madvise(MADV_DONTNEED) on a private, never-written file mapping only drops this process's
 * mapping of those pages: they stay in the page cache, and a page needed again comes back on
 * the next access (a minor fault, no disk read while the cache holds it), so what stays resident
 * is what requests use.
 *
 * Only mappings of the executable file that cannot be written and hold no page of their own (a
 * written page of a private mapping is anonymous memory, and dropping it would lose the write:
 * JavaScriptCore writes its configuration, then makes it read-only) are touched, and in the
 * writable mapping only the section where Bun keeps the embedded bundle (`.bun`, our code and
 * its bytecode: ~8 MB resident once the server is loaded), read-only in use, and of it only the
 * pages /proc/self/pagemap shows as file pages (never written). madvise comes
 * from libc through bun:ffi, loaded at the first call (after start); where either is missing
 * (not Linux, no libc) nothing is done.
 */

const MADV_DONTNEED = 4;

type Madvise = (address: bigint, length: bigint, advice: number) => number;
let madvise: Madvise | null | undefined;

async function loadMadvise(): Promise<Madvise | null> {
  if (process.platform !== "linux") return null;
  try {
    const { dlopen, FFIType } = await import("bun:ffi");
    const libc = dlopen("libc.so.6", { madvise: { args: [FFIType.u64, FFIType.u64, FFIType.i32], returns: FFIType.i32 } });
    return (address, length, advice) => libc.symbols.madvise(address, length, advice) as number;
  } catch {
    return null;
  }
}

export interface PageRange {
  start: bigint;
  end: bigint;
}

/** A mapping of the executable file, from /proc/self/smaps. */
export interface ExecutableMapping extends PageRange {
  writable: boolean;
  private: boolean;
  /** Where in the file it starts. */
  offset: number;
  /** kB of pages of its own (written pages of a private mapping). */
  anonymous: number;
}

/** The executable's mappings, and the kernel's page size, from the text of /proc/self/smaps. */
export function executableMappings(smaps: string, executable: string): { mappings: ExecutableMapping[]; pageSize: number } {
  const mappings: ExecutableMapping[] = [];
  let current: ExecutableMapping | null = null;
  let pageSize = 4096;
  for (const line of smaps.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) ([0-9a-f]+) \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      current = null;
      if (head[5] !== executable) continue;
      current = { start: BigInt(`0x${head[1]}`), end: BigInt(`0x${head[2]}`), writable: head[3][1] === "w", private: head[3][3] === "p", offset: Number.parseInt(head[4], 16), anonymous: 0 };
      mappings.push(current);
      continue;
    }
    const size = /^KernelPageSize:\s+(\d+) kB/.exec(line);
    if (size) pageSize = Number(size[1]) * 1024;
    // "Anonymous", "AnonHugePages", "Swap": any page of its own disqualifies a mapping.
    const own = /^(Anonymous|AnonHugePages|Swap):\s+(\d+) kB/.exec(line);
    if (own && current) current.anonymous += Number(own[2]);
  }
  return { mappings, pageSize };
}

/**
 * Address and size of an ELF section of a 64-bit little-endian executable (x64, arm64), or null;
 * `read(offset, length)` reads the file (only its header, section headers and their names are read).
 */
export function elfSection(read: (offset: number, length: number) => Uint8Array, name: string): { offset: number; size: number } | null {
  const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const head = read(0, 64);
  const h = view(head);
  if (head.length < 64 || h.getUint32(0) !== 0x7f454c46 || head[4] !== 2 || head[5] !== 1) return null;
  const entry = h.getUint16(0x3a, true);
  const count = h.getUint16(0x3c, true);
  const table = read(Number(h.getBigUint64(0x28, true)), entry * count);
  if (entry < 64 || table.length < entry * count) return null;
  const t = view(table);
  const namesAt = h.getUint16(0x3e, true) * entry;
  const names = read(Number(t.getBigUint64(namesAt + 24, true)), Number(t.getBigUint64(namesAt + 32, true)));
  const wanted = new TextEncoder().encode(`${name}\0`);
  for (let i = 0; i < count; i++) {
    const at = t.getUint32(i * entry, true);
    if (wanted.every((byte, k) => names[at + k] === byte)) return { offset: Number(t.getBigUint64(i * entry + 24, true)), size: Number(t.getBigUint64(i * entry + 32, true)) };
  }
  return null;
}

/** Runs of pages in [start, end) (page-aligned) that are present and file pages, from /proc/self/pagemap. */
function unwrittenFilePages(start: number, end: number, pageSize: number): PageRange[] {
  const pages = (end - start) / pageSize;
  const entries = Buffer.alloc(pages * 8);
  const fd = openSync("/proc/self/pagemap", "r");
  try {
    if (readSync(fd, entries, 0, entries.length, (start / pageSize) * 8) !== entries.length) return [];
  } finally {
    closeSync(fd);
  }
  const runs: PageRange[] = [];
  let runStart = -1;
  for (let i = 0; i <= pages; i++) {
    // Bit 63: present; bit 61: a file page (a written page of a private mapping is not).
    const entry = i < pages ? entries.readBigUInt64LE(i * 8) : 0n;
    const unwritten = ((entry >> 63n) & 1n) === 1n && ((entry >> 61n) & 1n) === 1n;
    if (unwritten && runStart < 0) runStart = i;
    if (!unwritten && runStart >= 0) {
      runs.push({ start: BigInt(start + runStart * pageSize), end: BigInt(start + i * pageSize) });
      runStart = -1;
    }
  }
  return runs;
}

/** Where the embedded bundle lies in the file, read once from its section headers (null: none). */
let bundleSection: { offset: number; size: number } | null | undefined;

/** The embedded bundle's resident pages never written, wherever its mapping put them. */
function bundlePages(executable: string, mappings: ExecutableMapping[], pageSize: number): PageRange[] {
  if (bundleSection === undefined) {
    const fd = openSync(executable, "r");
    try {
      bundleSection = elfSection((offset, length) => {
        const bytes = Buffer.alloc(length);
        return bytes.subarray(0, readSync(fd, bytes, 0, length, offset));
      }, ".bun");
    } finally {
      closeSync(fd);
    }
  }
  const section = bundleSection;
  if (!section) return [];
  const mapping = mappings.find((m) => m.private && m.offset <= section.offset && section.offset + section.size <= m.offset + Number(m.end - m.start));
  if (!mapping) return [];
  const address = Number(mapping.start) + section.offset - mapping.offset;
  const start = Math.ceil(address / pageSize) * pageSize;
  const end = Math.floor((address + section.size) / pageSize) * pageSize;
  return end > start ? unwrittenFilePages(start, end, pageSize) : [];
}

/** Drops the executable's resident pages that were never written; answers how many bytes it advised (0: nothing done). */
export async function releaseExecutablePages(): Promise<number> {
  if (madvise === undefined) madvise = await loadMadvise();
  if (!madvise) return 0;
  let advised = 0n;
  try {
    const executable = readlinkSync("/proc/self/exe");
    const { mappings, pageSize } = executableMappings(readFileSync("/proc/self/smaps", "utf8"), executable);
    const readOnly = mappings.filter((m) => !m.writable && m.private && m.anonymous === 0);
    for (const { start, end } of [...readOnly, ...bundlePages(executable, mappings, pageSize)]) {
      if (madvise(start, end - start, MADV_DONTNEED) === 0) advised += end - start;
    }
  } catch {
    // No /proc (a sandbox): the pages stay, as before.
  }
  return Number(advised);
}
