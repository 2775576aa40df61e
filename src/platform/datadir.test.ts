import { afterEach, beforeEach, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { prepareDataDir } from "./datadir";

let dir: string;
beforeEach(() => (dir = join(mkdtempSync(join(tmpdir(), "cairn-dd-")), "data")));
afterEach(() => rmSync(join(dir, ".."), { recursive: true, force: true }));

test("creates the layout and a 0600 secret.key that later starts reuse", () => {
  const first = prepareDataDir(dir);
  for (const sub of ["files", "backups", "tmp"]) expect(statSync(join(dir, sub)).isDirectory()).toBe(true);
  expect(first.dbPath).toBe(join(dir, "cairn.db"));
  expect(statSync(join(dir, "secret.key")).mode & 0o777).toBe(0o600);
  expect(first.secretKey).toHaveLength(32);
  const second = prepareDataDir(dir);
  expect(Buffer.from(second.secretKey).equals(Buffer.from(first.secretKey))).toBe(true);
});

test("empties tmp/ at start", () => {
  prepareDataDir(dir);
  writeFileSync(join(dir, "tmp", "half-written.upload"), "x");
  prepareDataDir(dir);
  expect(existsSync(join(dir, "tmp", "half-written.upload"))).toBe(false);
});

test("a damaged secret.key is refused with advice", () => {
  prepareDataDir(dir);
  writeFileSync(join(dir, "secret.key"), "garbage");
  expect(() => prepareDataDir(dir)).toThrow(/damaged/);
  expect(readFileSync(join(dir, "secret.key"), "utf8")).toBe("garbage");
});

test("a new data directory is private: folders 0700, and nothing exposed to report", () => {
  const data = prepareDataDir(dir);
  for (const d of [dir, join(dir, "files"), join(dir, "backups"), join(dir, "tmp")]) expect(statSync(d).mode & 0o777).toBe(0o700);
  expect(data.exposed).toEqual([]);
});

test("an existing directory that others can read is reported, not changed", () => {
  mkdirSync(dir, { mode: 0o755 });
  chmodSync(dir, 0o755);
  const data = prepareDataDir(dir);
  expect(data.exposed).toEqual([dir]);
  expect(statSync(dir).mode & 0o777).toBe(0o755);
});
