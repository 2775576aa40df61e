/**
 * restore-test: the checks run on a scratch copy (in a child process) and report; a damaged
 * backup is found and never swapped in.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { openSync, readFileSync, rmSync, writeSync, closeSync, statSync } from "node:fs";
import { join } from "node:path";
import { call, makeEnv, PASSWORD, type TestEnv, type Who } from "../../tests/harness";
import { uploaded } from "../attachments/testing";
import { ownerMemberAndPage } from "../pages/testing";
import { settled } from "./jobs";
import type { CheckReport } from "./restore-test";
import { runBackupNow } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

async function testRestore(who: Who, label: string) {
  const res = await call(env, "POST", `/api/admin/backups/${label}/restore-test`, { as: who });
  expect(res.status).toBe(202);
  const job = await settled(env.core, res.body.job.id);
  expect(job?.state).toBe("succeeded");
  return job!.result as CheckReport;
}

async function fixture() {
  const f = await ownerMemberAndPage(env);
  const file = await uploaded(env, f.owner, f.page.id, "attachment bytes", "a.txt", "text/plain");
  const label = (await runBackupNow(env, f.owner)).result.backup.label;
  return { ...f, file, label, copy: join(env.dir, "backups", label, "cairn.db") };
}

const byName = (r: CheckReport) => Object.fromEntries(r.checks.map((c) => [c.name, c.ok]));

test("a sound backup passes every check, and nothing is swapped", async () => {
  const { owner, label } = await fixture();
  const before = env.core.sqlite.query("SELECT count(*) AS n FROM audit_log").get();
  const report = await testRestore(owner, label);
  expect(byName(report)).toEqual({ integrity: true, migrations: true, foreign_keys: true, audit_chain: true, files: true });
  expect(report.ok).toBe(true);
  expect(report.files.referenced).toBe(1);
  expect(env.core.sqlite.query("SELECT count(*) AS n FROM audit_log").get()).toEqual(before);
  expect(env.core.maintenance.active()).toBe(false);
});

test("flipped bytes in the backup's cairn.db: reported, and a restore of it fails its checks with the data untouched", async () => {
  const { owner, label, copy, page } = await fixture();
  // Damage the b-tree headers of pages past the first (not the file's header: it would not open at all).
  const pageSize = readFileSync(copy).readUInt16BE(16);
  const size = statSync(copy).size;
  const fd = openSync(copy, "r+");
  for (let at = pageSize * 3; at < size; at += pageSize * 2) writeSync(fd, Buffer.alloc(8, 0xa5), 0, 8, at);
  closeSync(fd);
  const report = await testRestore(owner, label);
  expect(report.ok).toBe(false);
  expect(byName(report).integrity).toBe(false);

  const res = await call(env, "POST", `/api/admin/backups/${label}/restore`, {
    as: owner,
    body: { confirmLabel: label, password: PASSWORD },
  });
  const job = await settled(env.core, res.body.job.id);
  expect([job?.state, job?.error?.code]).toEqual(["failed", "restore_checks_failed"]);
  expect(env.core.maintenance.active()).toBe(false);
  expect((await call(env, "GET", `/api/pages/${page.id}`, { as: owner })).status).toBe(200);
  const list = await call(env, "GET", "/api/admin/backups", { as: owner });
  expect(list.body.restore).toEqual({ running: null, kept: null });
});

test("a referenced file missing from files/, or changed: reported by name", async () => {
  const { owner, label, file } = await fixture();
  const sha = env.core.sqlite.query<{ sha256: string }, [string]>("SELECT sha256 FROM attachments WHERE id = ?").get(file.id)!.sha256;
  const blob = join(env.dir, "files", sha.slice(0, 2), sha.slice(2));
  const bytes = readFileSync(blob);
  rmSync(blob);
  let report = await testRestore(owner, label);
  expect(byName(report)).toMatchObject({ integrity: true, files: false });
  expect(report.files.missing).toEqual([sha]);

  await Bun.write(blob, Buffer.concat([bytes, Buffer.from("!")]));
  report = await testRestore(owner, label);
  expect(report.files.mismatched).toEqual([sha]);
  expect(report.ok).toBe(false);
});

test("restore-test needs backups.manage; an unknown label is 404", async () => {
  const { member, owner } = await fixture();
  expect((await call(env, "POST", "/api/admin/backups/2026-01-01T00-00-00Z/restore-test", { as: member })).status).toBe(403);
  const missing = await call(env, "POST", "/api/admin/backups/2020-01-01T00-00-00Z/restore-test", { as: owner });
  expect([missing.status, missing.body.code]).toEqual([404, "backup_not_found"]);
});
