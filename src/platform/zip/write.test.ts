import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { centralDirectory } from "./format";
import { openZip } from "./read";
import { type ZipSink, ZipCancelled, zipBytes, zipStream } from "./write";

const dir = mkdtempSync(join(tmpdir(), "cairn-zip-write-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const noisy = (n: number) => new Uint8Array(n).map((_, i) => (i * 2654435761) >>> 27);
let files = 0;
async function saved(bytes: Uint8Array): Promise<string> {
  const file = join(dir, `z${files++}.zip`);
  await Bun.write(file, bytes);
  return file;
}

async function sample(z: ZipSink) {
  await z.add("manifest.json", '{"format":"cairn-pack"}\n');
  await z.add("pages/00001.json", JSON.stringify({ title: "Ünïcode ✓", body: "text ".repeat(500) }));
  await z.add("blobs/stored", noisy(200_000), { store: true });
  await z.add("blobs/from-file", new Blob([noisy(150_000)]));
  await z.add("blobs/from-file-stored", new Blob([noisy(70_000)]), { store: true });
  await z.add("empty.txt", "");
}

describe("zipStream", () => {
  test("the same entries give the same bytes, and they read back", async () => {
    const a = await zipBytes(sample);
    const b = await zipBytes(sample);
    expect(Bun.hash(a)).toBe(Bun.hash(b));
    const zip = await openZip(await saved(a));
    expect(zip.entries.map((e) => e.path)).toEqual([
      "manifest.json",
      "pages/00001.json",
      "blobs/stored",
      "blobs/from-file",
      "blobs/from-file-stored",
      "empty.txt",
    ]);
    expect(JSON.parse(await zip.get("pages/00001.json")!.text()).title).toBe("Ünïcode ✓");
    expect(await zip.get("blobs/stored")!.read()).toEqual(noisy(200_000));
    expect(await zip.get("blobs/from-file")!.read()).toEqual(noisy(150_000));
    expect(await zip.get("blobs/from-file-stored")!.read()).toEqual(noisy(70_000));
    expect(await zip.get("empty.txt")!.text()).toBe("");
  });

  test("another reader (fflate's unzip) reads the archive the same", async () => {
    const files = unzipSync(await zipBytes(sample));
    expect(Object.keys(files)).toEqual([
      "manifest.json",
      "pages/00001.json",
      "blobs/stored",
      "blobs/from-file",
      "blobs/from-file-stored",
      "empty.txt",
    ]);
    expect(files["blobs/from-file"]).toEqual(noisy(150_000));
    expect(new TextDecoder().decode(files["manifest.json"])).toBe('{"format":"cairn-pack"}\n');
  });

  test("an entry that starts past 4 GB has its offset in a ZIP64 extra field, and the end records switch to ZIP64", () => {
    const name = new TextEncoder().encode("late.bin");
    const start = 5_000_000_123;
    const out = centralDirectory([{ name, method: 0, crc: 1, compressed: 10, size: 10, offset: 4_999_999_999, descriptor: false }], start);
    const v = new DataView(out.buffer);
    expect(v.getUint16(6, true)).toBe(45); // version needed: ZIP64
    expect(v.getUint32(42, true)).toBe(0xffffffff);
    expect(v.getUint16(30, true)).toBe(12);
    expect([v.getUint16(54, true), v.getUint16(56, true), Number(v.getBigUint64(58, true))]).toEqual([1, 8, 4_999_999_999]);
    const end64 = 46 + name.length + 12;
    expect(v.getUint32(end64, true)).toBe(0x06064b50);
    expect(Number(v.getBigUint64(end64 + 48, true))).toBe(start);
    expect(v.getUint32(out.length - 22 + 16, true)).toBe(0xffffffff);
  });

  test("every entry is dated 1980-01-01 00:00, flagged UTF-8, with no extra field; stored entries are not deflated", async () => {
    const bytes = await zipBytes(sample);
    const v = new DataView(bytes.buffer);
    let seen = 0;
    const directoryEnd = bytes.length - 22;
    for (let p = v.getUint32(directoryEnd + 16, true); p < directoryEnd; p += 46 + v.getUint16(p + 28, true)) {
      expect(v.getUint32(p, true)).toBe(0x02014b50);
      seen++;
      expect(v.getUint16(p + 12, true)).toBe(0); // time
      expect(v.getUint16(p + 14, true)).toBe(0x21); // 1980-01-01
      expect(v.getUint16(p + 8, true) & 0x0800).toBe(0x0800);
      expect(v.getUint16(p + 30, true)).toBe(0); // extra
      const name = new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + v.getUint16(p + 28, true)));
      expect(v.getUint16(p + 10, true)).toBe(name.endsWith("stored") ? 0 : 8);
    }
    expect(seen).toBe(6);
  });

  test("past 65,534 entries the archive switches to ZIP64 and still reads back", async () => {
    const count = 70_000;
    const bytes = await zipBytes(async (z) => {
      for (let i = 0; i < count; i++) await z.add(`e/${i}`, String(i), { store: true });
    });
    const v = new DataView(bytes.buffer);
    const end = bytes.length - 22;
    expect(v.getUint16(end + 10, true)).toBe(0xffff);
    expect(v.getUint32(end - 20, true)).toBe(0x07064b50); // the ZIP64 locator
    const zip = await openZip(await saved(bytes), { maxEntries: 100_000, maxTotalBytes: 1e9, maxRatio: 100, maxEntryBytes: 1e6 });
    expect(zip.entries.length).toBe(count);
    expect(await zip.get("e/69999")!.text()).toBe("69999");
  });

  test("it is pull-based: a reader that stops reading stops the producer", async () => {
    const block = noisy(64 * 1024);
    let added = 0;
    const stream = zipStream(async (z) => {
      for (let i = 0; i < 300; i++) {
        await z.add(`chunk/${i}`, block, { store: true });
        added++;
      }
    });
    const reader = stream.getReader();
    await reader.read();
    await Bun.sleep(50);
    // ~1 MB may wait in the queue: about 16 entries of 64 KB, far from the 300.
    expect(added).toBeLessThan(40);
    let total = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read()) total += r.value.byteLength;
    expect(added).toBe(300);
    expect(total).toBeGreaterThan(300 * 64 * 1024);
  });

  test("a cancelled stream makes add throw ZipCancelled, so the producer stops", async () => {
    let failure: unknown = null;
    let added = 0;
    const stream = zipStream(async (z) => {
      try {
        for (let i = 0; i < 1000; i++) {
          await z.add(`chunk/${i}`, noisy(64 * 1024), { store: true });
          added++;
        }
      } catch (err) {
        failure = err;
        throw err;
      }
    });
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel();
    await Bun.sleep(20);
    expect(failure).toBeInstanceOf(ZipCancelled);
    expect(added).toBeLessThan(40);
  });

  test("an error in the producer errors the stream; a path added twice is an error", async () => {
    const stream = zipStream(async (z) => {
      await z.add("a", "1");
      await z.add("a", "2");
    });
    await expect(new Response(stream).arrayBuffer()).rejects.toThrow("added twice");
  });
});
