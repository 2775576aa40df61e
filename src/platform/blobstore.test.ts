import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FsBlobStore } from "./blobstore";
import { sha256Hex } from "./crypto";

let dir: string;
let store: FsBlobStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cairn-blobs-"));
  mkdirSync(join(dir, "files"));
  mkdirSync(join(dir, "tmp"));
  store = new FsBlobStore(join(dir, "files"), join(dir, "tmp"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function* chunks(...parts: string[]) {
  for (const p of parts) yield new TextEncoder().encode(p);
}
const listed = async () => {
  const out: string[] = [];
  for await (const s of store.list()) out.push(s);
  return out.sort();
};

describe("FsBlobStore", () => {
  test("stores bytes under files/ab/cdef… by their SHA-256 and reads them back", async () => {
    const lease = await store.put(chunks("hello ", "world"));
    const sha = sha256Hex("hello world");
    expect(lease).toMatchObject({ sha256: sha, size: 11, created: true });
    lease.release();
    expect(readdirSync(join(dir, "files", sha.slice(0, 2)))).toEqual([sha.slice(2)]);
    expect(await (await store.open(sha))!.text()).toBe("hello world");
    expect([await store.has(sha), await store.size(sha)]).toEqual([true, 11]);
    expect(await listed()).toEqual([sha]);
    expect(readdirSync(join(dir, "tmp"))).toEqual([]);
  });

  test("the same bytes again change nothing", async () => {
    (await store.put(chunks("same"))).release();
    const again = await store.put(chunks("sa", "me"));
    expect(again.created).toBe(false);
    again.release();
    expect(await listed()).toEqual([sha256Hex("same")]);
    expect(readdirSync(join(dir, "tmp"))).toEqual([]);
  });

  test("a source that fails leaves nothing behind and the error goes on", async () => {
    async function* broken() {
      yield new Uint8Array(1000);
      throw new Error("connection reset");
    }
    await expect(store.put(broken())).rejects.toThrow("connection reset");
    expect(readdirSync(join(dir, "tmp"))).toEqual([]);
    expect(await listed()).toEqual([]);
  });

  test("a leased blob cannot be deleted until every lease is released", async () => {
    const a = await store.put(chunks("x"));
    const b = await store.put(chunks("x"));
    expect(await store.delete(a.sha256)).toBe(false);
    a.release();
    a.release(); // twice is harmless
    expect(await store.delete(a.sha256)).toBe(false);
    b.release();
    expect(await store.delete(a.sha256)).toBe(true);
    expect(await store.has(a.sha256)).toBe(false);
    expect(await store.delete(a.sha256)).toBe(false);
  });

  test("names that are not hashes are never paths", async () => {
    for (const bad of ["../../etc/passwd", "ab", "A".repeat(64), ""]) {
      expect(await store.open(bad)).toBeNull();
      expect(await store.has(bad)).toBe(false);
      expect(await store.size(bad)).toBeNull();
      expect(await store.delete(bad)).toBe(false);
    }
  });
});
