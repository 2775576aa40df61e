/**
 * `kill -9` of a real server process while a backup of a large-ish database is being copied:
 * the live data is intact, no half backup is listed, and the next start removes the folder.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeEnv, PASSWORD, signUp } from "../../tests/harness";
import { startServerProcess } from "../../tests/server-process";
import { newPage, newSpace } from "../pages/testing";
import { fingerprintDb } from "./testing";
import { listManifestsIn } from "./store";

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "cairn-backup-kill-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROWS = 3_000;
const ROW_BYTES = 50_000; // ~150 MB of versions: the copy takes long enough to be caught

const fingerprint = (path: string) => fingerprintDb(path, { audit: "SELECT count(*) AS n, max(sequence) AS head FROM audit_log" });

test("kill -9 during a backup leaves the live data intact and no half backup listed; the next start removes it", async () => {
  // 1. A data directory with an owner, a page and many large versions.
  const env = makeEnv({ dir });
  const owner = await signUp(env, "owner@example.com");
  const space = await newSpace(env, owner, "BIG");
  const page = await newPage(env, owner, space.id, "Big");
  const insert = env.core.sqlite.prepare(
    "INSERT INTO page_versions (page_id, version_number, title, content_json, " +
      "change_comment, author_id, created_at) VALUES (?, ?, 'Big', ?, NULL, ?, ?)",
  );
  const filler = "x".repeat(ROW_BYTES);
  env.core.sqlite.transaction(() => {
    for (let i = 0; i < ROWS; i++) insert.run(page.id, 100 + i, `{"n":${i},"t":"${filler}"}`, owner.id, new Date().toISOString());
  })();
  env.close();
  const before = fingerprint(join(dir, "cairn.db"));
  expect(before.integrity).toBe("ok");

  // 2. The real server; a backup started over HTTP; killed while its .partial- folder exists.
  const server = await startServerProcess(dir);
  const backups = join(dir, "backups");
  try {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
      body: JSON.stringify({ email: "owner@example.com", password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = /cairn_session=[^;]+/.exec(login.headers.get("set-cookie") ?? "")![0];
    const run = await fetch(`${server.url}/api/admin/backups/run`, { method: "POST", headers: { cookie, "x-requested-with": "Cairn" } });
    expect(run.status).toBe(202);
    let partial: string | undefined;
    for (let i = 0; i < 20_000 && !partial; i++) {
      partial = readdirSync(backups).find((n) => n.startsWith(".partial-"));
      if (!partial) await Bun.sleep(1);
    }
    expect(partial).toBeDefined();
    server.proc.kill(9);
    await server.proc.exited;
    // Killed mid-way: the folder is still the partial one; nothing finished.
    expect(existsSync(join(backups, partial!))).toBe(true);
    expect(listManifestsIn(backups)).toEqual([]);
  } finally {
    server.proc.kill(9);
  }

  // 3. The live data is as it was (the backup only read it); the sign-in's audit entries were
  // committed before the kill and are there too, the chain whole.
  const after = fingerprint(join(dir, "cairn.db"));
  expect(after).toMatchObject({ integrity: "ok", versions: before.versions });
  expect((after.audit as { n: number }).n).toBeGreaterThan((before.audit as { n: number }).n);

  // 4. The next start removes the half backup; the list is empty.
  const again = await startServerProcess(dir);
  try {
    expect(readdirSync(backups).filter((n) => n.startsWith(".partial-"))).toEqual([]);
    expect(listManifestsIn(backups)).toEqual([]);
  } finally {
    again.proc.kill("SIGTERM");
    await again.proc.exited;
  }
  expect(fingerprint(join(dir, "cairn.db"))).toMatchObject({ integrity: "ok", versions: before.versions });
}, 120_000);
