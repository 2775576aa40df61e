/**
 * `kill -9` of a real server process in the middle of a restore's swap (a database big enough
 * that the swap takes a while): the data is the old or the new, never a mix, and the next
 * start finishes or fails the restore accordingly, with maintenance off.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, makeEnv, PASSWORD, signUp } from "../../tests/harness";
import { startServerProcess } from "../../tests/server-process";
import { newPage, newSpace } from "../pages/testing";
import { fingerprintDb } from "./testing";
import { takeBackup } from "./service";

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "cairn-restore-kill-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROWS = 3_000;
const ROW_BYTES = 40_000; // ~120 MB of versions: the swap takes long enough to be caught

const fingerprint = (path: string) =>
  fingerprintDb(path, { pages: "SELECT count(*) AS n, group_concat(title) AS titles FROM (SELECT title FROM pages ORDER BY title)" });

const phase = () => {
  try {
    return (
      (JSON.parse(readFileSync(join(dir, "backups", "state", "restore.json"), "utf8")) as { current: { phase: string } | null }).current
        ?.phase ?? null
    );
  } catch {
    return null;
  }
};

test("kill -9 during the swap leaves the old data or the new, never a mix; the next start settles the restore", async () => {
  // 1. The backup: an owner, a page and many large versions ("new" once restored).
  const env = makeEnv({ dir });
  const owner = await signUp(env, "owner@example.com");
  const space = await newSpace(env, owner, "BIG");
  const page = await newPage(env, owner, space.id, "Big");
  const insert = env.core.sqlite.prepare(
    "INSERT INTO page_versions (page_id, version_number, title, content_json, " +
      "change_comment, author_id, created_at) VALUES (?, ?, 'Big', ?, NULL, ?, ?)",
  );
  const fill = (from: number, letter: string) =>
    env.core.sqlite.transaction(() => {
      for (let i = 0; i < ROWS; i++)
        insert.run(page.id, from + i, `{"n":${i},"t":"${letter.repeat(ROW_BYTES)}"}`, owner.id, new Date().toISOString());
    })();
  fill(100, "x");
  env.core.commits.flush();
  const label = (await takeBackup(env.core, "manual")).label;
  // 2. The live data moves on ("old" once the restore is asked for): other pages, other versions.
  await newPage(env, owner, space.id, "Written after the backup");
  fill(100 + ROWS, "y");
  env.close();
  const backupData = fingerprint(join(dir, "backups", label, "cairn.db"));
  const liveData = fingerprint(join(dir, "cairn.db"));
  expect(backupData.integrity).toBe("ok");
  expect(liveData.versions).not.toEqual(backupData.versions);

  // 3. The real server; the restore asked over HTTP; killed once the swap has begun.
  const server = await startServerProcess(dir);
  try {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
      body: JSON.stringify({ email: "owner@example.com", password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = /cairn_session=[^;]+/.exec(login.headers.get("set-cookie") ?? "")![0];
    const restore = await fetch(`${server.url}/api/admin/backups/${label}/restore`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json", "x-requested-with": "Cairn" },
      body: JSON.stringify({ confirmLabel: label, password: PASSWORD }),
    });
    expect(restore.status).toBe(202);
    let seen: string | null = null;
    for (let i = 0; i < 60_000 && seen !== "swapping" && seen !== "done" && seen !== "failed"; i++) {
      seen = phase();
      if (seen !== "swapping") await Bun.sleep(1);
    }
    expect(seen).toBe("swapping");
    await Bun.sleep(150);
    server.proc.kill(9);
    await server.proc.exited;
  } finally {
    server.proc.kill(9);
  }

  // 4. Exactly one of the two, whole.
  const killed = fingerprint(join(dir, "cairn.db"));
  expect(killed.integrity).toBe("ok");
  const { integrity: _a, ...k } = killed;
  const { integrity: _b, ...oldData } = liveData;
  const { integrity: _c, ...newData } = backupData;
  const which = Bun.deepEquals(k, newData) ? "new" : Bun.deepEquals(k, oldData) ? "old" : "mix";
  expect(which).not.toBe("mix");

  // 5. The next start settles the state file to match and is not in maintenance.
  const again = makeEnv({ dir });
  try {
    expect(phase()).toBe(which === "new" ? "done" : "failed");
    expect(again.core.maintenance.active()).toBe(false);
    const { integrity: _d, ...settledData } = fingerprint(join(dir, "cairn.db"));
    expect(settledData).toEqual(which === "new" ? newData : oldData);
    const list = await call(again, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: PASSWORD } });
    expect(list.status).toBe(200);
    console.log(`restore killed mid-swap: the ${which} data stands`);
  } finally {
    again.close();
  }
}, 120_000);
