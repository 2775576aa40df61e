/** `cairn restore` as a person runs it: a real process on a stopped server's data directory. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeEnv, signUp } from "../../tests/harness";
import { ROOT } from "../../tests/server-process";
import { newPage, newSpace } from "../pages/testing";
import { takeBackup } from "../backups/service";
import { pidPath } from "../platform/pidfile";

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "cairn-restore-cli-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cairn(...args: string[]) {
  const proc = Bun.spawn(["bun", "src/main.ts", ...args, "--data", dir], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { out: out.trim(), err: err.trim(), code };
}

const titles = () => {
  const db = new Database(join(dir, "cairn.db"), { readonly: true });
  try {
    return db
      .query<{ title: string }, []>("SELECT title FROM pages ORDER BY title")
      .all()
      .map((r) => r.title);
  } finally {
    db.close();
  }
};

test("refused beside a running server; then restores with progress on stderr, and undo puts the data back", async () => {
  const env = makeEnv({ dir });
  const owner = await signUp(env, "owner@example.com");
  const space = await newSpace(env, owner, "DOCS");
  await newPage(env, owner, space.id, "In the backup");
  env.core.commits.flush();
  const label = (await takeBackup(env.core, "manual")).label;
  await newPage(env, owner, space.id, "After the backup");
  env.close();
  const before = titles();
  expect(before).toContain("After the backup");

  // A live process named like a server holds the pid file: refused, nothing changed.
  const server = Bun.spawn(["bun", "-e", "setTimeout(() => {}, 60000)", "serve"], { stdout: "ignore", stderr: "ignore" });
  writeFileSync(pidPath(dir), `${server.pid}\n`);
  try {
    const refused = await cairn("restore", label);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`process ${server.pid}) is running`);
    expect(titles()).toEqual(before);
  } finally {
    server.kill(9);
    await server.exited;
  }

  // The pid file now names a dead process: ignored.
  const bad = await cairn("restore", label, "--at", "yesterday");
  expect([bad.code, bad.err]).toEqual([2, expect.stringContaining("--at must be")]);
  const restored = await cairn("restore", label);
  expect(restored.code).toBe(0);
  expect(restored.out).toContain(`Restored ${label}`);
  // Each phase as it begins (a small database's quickest ones may pass between two looks).
  expect(restored.err).toContain("checking the restored copy");
  expect(restored.out).toMatch(/kept as safety backup \S+ \(cairn restore undo puts it back\)/);
  expect(titles()).not.toContain("After the backup");
  expect(titles()).toContain("In the backup");

  const undone = await cairn("restore", "undo");
  expect(undone.code).toBe(0);
  expect(titles()).toEqual(before);

  const unknown = await cairn("restore", "2020-01-01T00-00-00Z");
  expect(unknown.code).toBe(2);
  expect(unknown.err).toContain("2020-01-01T00-00-00Z");
}, 60_000);
