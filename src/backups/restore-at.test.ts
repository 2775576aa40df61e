/**
 * Point-in-time restore through the app: `at` a second between two writes keeps the first and
 * not the second; preview and restore take the same `at`; a time the archive does not reach is
 * 409 not_covered naming `at`.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { call, makeEnv, PASSWORD, type TestEnv } from "../../tests/harness";
import { newPage, ownerMemberAndPage } from "../pages/testing";
import { settled } from "./jobs";
import { readRestoreFile } from "./restore-state";
import { runBackupNow } from "./testing";

const archivingEnv = (): TestEnv => makeEnv({ archiveWal: true });

let env: TestEnv;
beforeEach(() => (env = archivingEnv()));
afterEach(() => env.close());

test("at a second between two writes: the first is kept, the second is not", async () => {
  const { owner, space } = await ownerMemberAndPage(env);
  const backup = (await runBackupNow(env, owner)).result.backup.label;
  env.clock.advance(5_000);
  const first = await newPage(env, owner, space.id, "First, before the moment");
  env.core.commits.flush();
  const moment = env.clock.now() + 1_000;
  env.clock.advance(5_000);
  const second = await newPage(env, owner, space.id, "Second, after the moment");
  env.core.commits.flush();
  const at = new Date(moment).toISOString();

  const preview = await call(env, "GET", `/api/admin/backups/${backup}/restore-preview?at=${encodeURIComponent(at)}`, { as: owner });
  expect(preview.status).toBe(200);
  expect(preview.body.lost.pages).toBe(1);
  expect(preview.body.at).toBe(at);

  const res = await call(env, "POST", `/api/admin/backups/${backup}/restore`, {
    as: owner,
    body: { confirmLabel: backup, password: PASSWORD, at },
  });
  expect(res.status).toBe(202);
  const job = await settled(env.core, res.body.job.id);
  expect({ state: job?.state, error: job?.error }).toEqual({ state: "succeeded", error: null });
  expect((await call(env, "GET", `/api/pages/${first.id}`, { as: owner })).status).toBe(200);
  expect((await call(env, "GET", `/api/pages/${second.id}`, { as: owner })).status).toBe(404);
  expect((await call(env, "POST", "/api/admin/audit/verify", { as: owner })).body.ok).toBe(true);
});

test("a time before the backup, or past what was archived, is 409 not_covered naming at", async () => {
  const { owner } = await ownerMemberAndPage(env);
  const backup = (await runBackupNow(env, owner)).result.backup.label;
  for (const at of [new Date(env.clock.now() - 3_600_000).toISOString(), new Date(env.clock.now() + 3_600_000).toISOString()]) {
    const res = await call(env, "GET", `/api/admin/backups/${backup}/restore-preview?at=${encodeURIComponent(at)}`, { as: owner });
    expect([res.status, res.body.code, res.body.field]).toEqual([409, "not_covered", "at"]);
  }
});

test(
  "a restore (or a restore-test) at a time before the backup is 409 not_covered " + "at once: no job, no safety copy, writes never stopped",
  async () => {
    const { owner } = await ownerMemberAndPage(env);
    const backup = (await runBackupNow(env, owner)).result.backup.label;
    const backupsBefore = (await call(env, "GET", "/api/admin/backups", { as: owner })).body.backups.length;
    for (const at of [new Date(env.clock.now() - 3_600_000).toISOString(), new Date(env.clock.now() + 3_600_000).toISOString()]) {
      const restore = await call(env, "POST", `/api/admin/backups/${backup}/restore`, {
        as: owner,
        body: { confirmLabel: backup, password: PASSWORD, at },
      });
      expect([restore.status, restore.body.code, restore.body.field]).toEqual([409, "not_covered", "at"]);
      expect(env.core.maintenance.active()).toBe(false);
      const check = await call(env, "POST", `/api/admin/backups/${backup}/restore-test?at=${encodeURIComponent(at)}`, { as: owner });
      expect([check.status, check.body.code, check.body.field]).toEqual([409, "not_covered", "at"]);
    }
    expect((await call(env, "GET", "/api/admin/backups", { as: owner })).body.backups.length).toBe(backupsBefore);
    expect(readRestoreFile(env.core).current).toBeNull();
  },
);
