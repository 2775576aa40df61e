/** `cairn backup` run as a person runs it (the real CLI from source) on a stopped server's data directory. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeEnv, signUp } from "../../tests/harness";
import { ROOT } from "../../tests/server-process";
import { listManifestsIn } from "../backups/store";
import { sha256File } from "../backups/testing";

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "cairn-cli-backup-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cairn(...args: string[]) {
  const proc = Bun.spawn(["bun", "src/main.ts", ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

test("cairn backup takes a manual backup with progress on standard error and one line on standard output; list lists it", async () => {
  const env = makeEnv({ dir });
  await signUp(env, "owner@example.com");
  env.close();

  expect((await cairn("backup", "list", "--data", dir)).out.trim()).toBe(`No backups in ${join(dir, "backups")}.`);
  const taken = await cairn("backup", "--data", dir);
  expect(taken.code).toBe(0);
  expect(taken.out.trim().split("\n")).toHaveLength(1);
  expect(taken.out).toMatch(/^Backup \d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z taken: [\d.]+ MB, 0 pages/);
  expect(taken.err).toMatch(/copying [\d.]+ MB of [\d.]+ MB \(100 %\)/);

  const [m] = listManifestsIn(join(dir, "backups"));
  expect(m).toMatchObject({ kind: "manual", removedAt: null });
  expect(m.counts.users).toBe(1);
  expect(sha256File(join(dir, "backups", m.label, "cairn.db"))).toBe(m.sha256);
  const listed = await cairn("backup", "list", "--data", dir);
  expect(listed.out).toContain(`${m.label}  manual`);
});

test("a mistyped command line is one line and exit 2", async () => {
  const bad = await cairn("backup", "now", "--data", dir);
  expect(bad.code).toBe(2);
  expect(bad.err).toContain("Usage: cairn backup [list] [--data DIR]");
  expect((await cairn("backup", "--data", join(dir, "nope"))).err).toContain("There is no data directory");
});
