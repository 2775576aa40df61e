import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { IMPORT_LIMITS, openZip, ZipRefused } from "./read";
import { zipBytes } from "./write";

const dir = mkdtempSync(join(tmpdir(), "cairn-zip-read-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const MB = 1024 * 1024;
const enc = new TextEncoder();

/** One entry of a hand-built (hostile) zip: every header field can lie. */
interface Hostile {
  name: string | Uint8Array;
  data?: Uint8Array;
  deflate?: boolean;
  flags?: number;
  method?: number;
  madeBy?: number;
  external?: number;
  size?: number; // declared uncompressed size (default: the truth)
  crc?: number;
}

/** A zip built byte by byte, so a test can say anything in its headers. */
function hostileZip(entries: Hostile[], declaredCount?: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = typeof e.name === "string" ? enc.encode(e.name) : e.name;
    const data = e.data ?? new Uint8Array(0);
    // The runtime's zlib: building 150 MB bombs with fflate would be slow under load.
    const body = e.deflate ? Bun.deflateSync(data as Uint8Array<ArrayBuffer>) : data;
    const method = e.method ?? (e.deflate ? 8 : 0);
    const fields = (v: DataView, at: number) => {
      v.setUint16(at, e.flags ?? 0, true);
      v.setUint16(at + 2, method, true);
      v.setUint16(at + 6, 0x21, true);
      v.setUint32(at + 8, e.crc ?? crc32(data), true);
      v.setUint32(at + 12, body.length, true);
      v.setUint32(at + 16, e.size ?? data.length, true);
      v.setUint16(at + 20, name.length, true);
    };
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    fields(lv, 6);
    local.set(name, 30);
    const record = new Uint8Array(46 + name.length);
    const cv = new DataView(record.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, e.madeBy ?? 20, true);
    cv.setUint16(6, 20, true);
    fields(cv, 8);
    cv.setUint32(38, e.external ?? 0, true);
    cv.setUint32(42, offset, true);
    record.set(name, 46);
    parts.push(local, body);
    central.push(record);
    offset += local.length + body.length;
  }
  const cdLength = central.reduce((n, r) => n + r.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, declaredCount ?? entries.length, true);
  ev.setUint16(10, declaredCount ?? entries.length, true);
  ev.setUint32(12, cdLength, true);
  ev.setUint32(16, offset, true);
  return new Uint8Array(Buffer.concat([...parts, ...central, end]));
}

let n = 0;
async function onDisk(bytes: Uint8Array): Promise<string> {
  const file = join(dir, `h${n++}.zip`);
  await Bun.write(file, bytes);
  return file;
}

/** Opens the zip and reads every entry: the refusal may come from either step. */
async function openAndRead(file: string): Promise<void> {
  const zip = await openZip(file);
  for (const e of zip.entries) await e.read();
}

const text = (s: string) => enc.encode(s);
const ok = { name: "fine.txt", data: text("fine") };
const zeros = (size: number) => new Uint8Array(size);
/** Bytes that do not compress (xorshift32), so their entry is over 1 MB compressed. */
function noise(size: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = 2463534242;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

const refusals: [string, () => Uint8Array, RegExp][] = [
  ["zip-slip (..)", () => hostileZip([ok, { name: "../../etc/cron.d/evil", data: text("x") }]), /leaves the archive/],
  ["zip-slip in the middle", () => hostileZip([{ name: "a/../../evil", data: text("x") }]), /leaves the archive/],
  ["absolute path", () => hostileZip([{ name: "/etc/passwd", data: text("x") }]), /absolute path/],
  ["backslashes", () => hostileZip([{ name: "..\\..\\evil.exe", data: text("x") }]), /backslash/],
  ["drive letter", () => hostileZip([{ name: "C:/Windows/evil", data: text("x") }]), /drive letter/],
  ["NUL in a path", () => hostileZip([{ name: "a\u0000.txt", data: text("x") }]), /control character/],
  ["control character in a path", () => hostileZip([{ name: "a\u001b[31m.txt", data: text("x") }]), /control character/],
  [
    "invalid UTF-8 in a name flagged UTF-8",
    () => hostileZip([{ name: new Uint8Array([0x61, 0xff, 0xfe]), flags: 0x0800, data: text("x") }]),
    /not valid UTF-8/,
  ],
  [
    "symlink (Unix mode in the external attributes)",
    () => hostileZip([{ name: "link", data: text("/etc/passwd"), madeBy: (3 << 8) | 20, external: (0o120777 << 16) >>> 0 }]),
    /symbolic links/,
  ],
  ["encrypted flag", () => hostileZip([{ name: "secret.txt", data: text("x"), flags: 0x0001 }]), /encrypted/],
  ["strong encryption flag", () => hostileZip([{ name: "secret.txt", data: text("x"), flags: 0x0041 }]), /encrypted/],
  ["duplicate paths", () => hostileZip([ok, ok]), /appears twice/],
  [
    "duplicate paths after normalisation (NFC, ./)",
    () => hostileZip([{ name: "./caf\u00e9.md" }, { name: "cafe\u0301.md" }]),
    /appears twice/,
  ],
  [
    "50,000 entries",
    () => hostileZip(Array.from({ length: 50_000 }, (_, i) => ({ name: `f${i}` }))),
    /too many entries \(50000, at most 20000\)/,
  ],
  [
    "1 GB declared for one entry",
    () => hostileZip([{ name: "big.bin", data: text("x"), size: 1024 * MB }]),
    /too large \(1 GB uncompressed, at most 200 MB\)/,
  ],
  // 12 × 190 MB declared, each over 2 MB "compressed" (a ratio under 100): only the total is over.
  [
    "2 GB declared in total",
    () => hostileZip(Array.from({ length: 12 }, (_, i) => ({ name: `part${i}`, data: zeros(2 * MB), method: 8, size: 190 * MB }))),
    /too large uncompressed \(over 2 GB\)/,
  ],
  [
    "ratio bomb (20 MB of zeros)",
    () => hostileZip([{ name: "bomb.txt", data: zeros(20 * MB), deflate: true }]),
    /compression ratio is too high/,
  ],
  [
    "lying size: inflates past the declared size",
    () => hostileZip([{ name: "liar.txt", data: zeros(50 * MB), deflate: true, size: 1000 }]),
    /inflates past its declared size/,
  ],
  [
    "lying size: shorter than declared",
    () => hostileZip([{ name: "short.txt", data: text("short"), deflate: true, size: 100 }]),
    /shorter than its declared size/,
  ],
  // Over 1 MB compressed, an entry is inflated in steps (fflate) rather than in one go (zlib): both refuse alike.
  [
    "lying size, inflated in steps: past the declared size",
    () => hostileZip([{ name: "liar.bin", data: noise(4 * MB), deflate: true, size: 2 * MB }]),
    /inflates past its declared size/,
  ],
  [
    "lying size, inflated in steps: shorter than declared",
    () => hostileZip([{ name: "short.bin", data: noise(2 * MB), deflate: true, size: 3 * MB }]),
    /shorter than its declared size/,
  ],
  [
    "damaged data, inflated in steps",
    () => hostileZip([{ name: "d.bin", data: noise(3 * MB), method: 8, size: 3 * MB }]),
    /compressed data is damaged/,
  ],
  ["stored entry whose sizes disagree", () => hostileZip([{ name: "s.txt", data: text("abc"), size: 10 }]), /sizes disagree/],
  ["wrong checksum", () => hostileZip([{ name: "c.txt", data: text("abc"), crc: 1234 }]), /checksum/],
  ["unsupported compression method (bzip2)", () => hostileZip([{ name: "b.txt", data: text("abc"), method: 12 }]), /compression method 12/],
  [
    "damaged deflate data",
    () => hostileZip([{ name: "d.txt", data: text("not deflate at all"), method: 8, size: 50 }]),
    /compressed data is damaged|shorter/,
  ],
  ["central directory counts more entries than it holds", () => hostileZip([ok], 3), /central directory is damaged/],
  ["not a zip", () => text("%PDF-1.7 hello, I am not a zip file at all"), /not a zip/],
  ["empty file", () => new Uint8Array(0), /not a zip/],
];

describe("openZip refuses hostile archives before inflating anything", () => {
  test.each(refusals)("%s", async (_label, build, reason) => {
    const file = await onDisk(build());
    const failure = await openAndRead(file).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(ZipRefused);
    expect((failure as ZipRefused).message).toMatch(reason);
  });

  test("the lying entry's refusal costs no more memory than its declared size (it stops inflating there)", async () => {
    const file = await onDisk(hostileZip([{ name: "liar.txt", data: zeros(150 * MB), deflate: true, size: 1000 }]));
    Bun.gc(true);
    const before = process.memoryUsage().rss;
    const zip = await openZip(file);
    await expect(zip.entries[0]!.read()).rejects.toThrow(/inflates past/);
    expect(process.memoryUsage().rss - before).toBeLessThan(40 * MB);
  }, 30_000);

  test("paths name the offending entry, and path checks come before anything is read", async () => {
    const failure = await openZip(await onDisk(hostileZip([{ name: "../evil", data: zeros(10), crc: 1 }]))).catch((e) => e);
    expect(failure).toMatchObject({ reason: "a path leaves the archive (..)", path: "../evil" });
  });
});

describe("openZip reads honest archives", () => {
  test("folders, paths normalised (NFC, ./, //), UTF-8 names without the flag, a comment after the end record", async () => {
    const bytes = hostileZip([
      { name: "docs/" },
      { name: "./docs//caf\u0065\u0301.md", data: text("# Café"), deflate: true },
      { name: "Ünïcode.txt", data: text("u") },
    ]);
    const withComment = new Uint8Array(bytes.length + 5);
    withComment.set(bytes);
    new DataView(withComment.buffer).setUint16(bytes.length - 2, 5, true);
    withComment.set(text("hello"), bytes.length);
    const zip = await openZip(await onDisk(withComment));
    expect(zip.entries.map((e) => e.path)).toEqual(["docs/caf\u00e9.md", "Ünïcode.txt"]);
    expect(await zip.get("docs/café.md")!.text()).toBe("# Café");
  });

  test("a small file that compresses well is fine (the ratio counts only past 1 MB); the limits are the design's", async () => {
    const zip = await openZip(await onDisk(hostileZip([{ name: "zeros", data: zeros(MB), deflate: true }])));
    expect((await zip.entries[0]!.read()).length).toBe(MB);
    expect(IMPORT_LIMITS).toEqual({ maxEntries: 20_000, maxTotalBytes: 2 * 1024 * MB, maxRatio: 100, maxEntryBytes: 200 * MB });
  });

  test("entries stream in slices (for the blob store) and round-trip the writer's output", async () => {
    const big = new Uint8Array(3 * MB).map((_, i) => (i * 2654435761) >>> 27);
    const file = await onDisk(await zipBytes((z) => z.add("blobs/x", big)));
    const parts: number[] = [];
    for await (const c of (await openZip(file)).get("blobs/x")!.chunks()) parts.push(c.byteLength);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(3 * MB);
  });
});
