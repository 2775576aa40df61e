/**
 * Start-up after a crash in the middle of a restore, both ways, deterministically: the swap's
 * marker row says whether the swap committed. (restore-kill.test.ts does it with a real kill.)
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeEnv, signUp } from "../../tests/harness";
import { newPage, newSpace } from "../pages/testing";
import { swapInCopy } from "./restore-swap";
import { readRestoreFile, writeRestoreFile, type RestoreRun } from "./restore-state";
import { takeBackup } from "./service";

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "cairn-restore-recovery-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (id: string, label: string): RestoreRun => ({
  id,
  kind: "restore",
  label,
  at: null,
  phase: "swapping",
  jobId: "job",
  actorId: null,
  ip: null,
  safetyLabel: "2026-01-01T00-00-00Z",
  replacedHead: { sequence: 1, hash: "h" },
  startedAt: new Date().toISOString(),
  finishedAt: null,
  error: null,
});

test("a swap that had not committed: failed, old data, maintenance off; one that had: finished at start, audited, copy kept", async () => {
  let env = makeEnv({ dir });
  const owner = await signUp(env, "owner@example.com");
  const space = await newSpace(env, owner, "DOCS");
  await newPage(env, owner, space.id, "In the backup");
  env.core.commits.flush();
  const label = (await takeBackup(env.core, "manual")).label;
  await newPage(env, owner, space.id, "After the backup");
  const titles = () =>
    env.core.sqlite
      .query<{ title: string }, []>("SELECT title FROM pages ORDER BY title")
      .all()
      .map((r) => r.title);

  // 1. Died during the swap, before its COMMIT: no marker.
  writeRestoreFile(env.core, { format: 1, current: run("not-committed", label), kept: null });
  env.close();
  env = makeEnv({ dir });
  expect(readRestoreFile(env.core).current).toMatchObject({ id: "not-committed", phase: "failed" });
  expect(env.core.maintenance.active()).toBe(false);
  expect(titles()).toContain("After the backup");

  // 2. Died after the swap's COMMIT (marker written with the rows), before it was finished.
  env.core.commits.flush();
  const copy = join(dir, "tmp", "copy.db");
  copyFileSync(join(dir, "backups", label, "cairn.db"), copy);
  env.core.maintenance.enter("restore", 60, Date.now());
  await swapInCopy(env.core, copy, "committed");
  writeRestoreFile(env.core, { format: 1, current: run("committed", label), kept: null });
  env.close();
  env = makeEnv({ dir });
  try {
    const state = readRestoreFile(env.core);
    expect(state.current).toMatchObject({ id: "committed", phase: "done" });
    expect(state.kept).toMatchObject({ safetyLabel: "2026-01-01T00-00-00Z", restoredLabel: label });
    expect(titles()).not.toContain("After the backup");
    expect(titles()).toContain("In the backup");
    const last = env.core.sqlite
      .query<{ action: string; details: string }, []>("SELECT action, details FROM audit_log ORDER BY sequence DESC LIMIT 1")
      .get()!;
    expect(last.action).toBe("backup.restored");
    expect(JSON.parse(last.details).replacedHead).toEqual({ sequence: 1, digest: "h" });
  } finally {
    env.close();
  }
}, 30_000);
