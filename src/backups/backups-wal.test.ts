/** Backups on a core that keeps the WAL archive (as the server's does): positions, coverage, pruning. */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { call, makeEnv, signUp, type TestEnv } from "../../tests/harness";
import { restoreToTime } from "../platform/backup/replay";
import { newPage, newSpace } from "../pages/testing";
import { keepGenerationCovered } from "./archive-watch";
import { startBackupJob } from "./service";
import { listManifests, readManifest } from "./store";
import { runBackupNow } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv({ archiveWal: true })));
afterEach(() => env.close());

const titles = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .query<{ title: string }, []>("SELECT title FROM pages ORDER BY title")
      .all()
      .map((r) => r.title);
  } finally {
    db.close();
  }
};

test("each backup records the archive's position; the list shows the coverage; the copy replays forward to a later commit", async () => {
  const owner = await signUp(env, "owner@example.com");
  const space = await newSpace(env, owner, "DOCS");
  await newPage(env, owner, space.id, "Before");
  const first = readManifest(env.core, (await runBackupNow(env, owner)).result.backup.label)!;
  // (typeof, not toMatchObject with expect.any: Bun's writes the matchers into the object.)
  expect([typeof first.wal?.generation, typeof first.wal?.frame]).toEqual(["string", "number"]);
  expect(titles(join(env.dir, "backups", first.label, "cairn.db"))).toEqual(["Before"]);

  await Bun.sleep(5); // the archive's commit times are real time
  await newPage(env, owner, space.id, "After");
  env.core.wal!.flush();
  const listed = await call(env, "GET", "/api/admin/backups", { as: owner });
  expect(listed.body.pointInTime.length).toBeGreaterThan(0);
  expect(listed.body.pointInTime[0].to).toBeGreaterThanOrEqual(first.wal!.committedAt);

  // The backup is a base: the archived frames after its position bring "After" back.
  const out = join(env.dir, "replayed.db");
  await restoreToTime({
    archiveDir: join(env.dir, "backups", "wal"),
    base: join(env.dir, "backups", first.label, "cairn.db"),
    basePosition: first.wal,
    at: Date.now(),
    out,
  });
  expect(titles(out)).toEqual(["After", "Before"]);

  const second = readManifest(env.core, (await runBackupNow(env, owner)).result.backup.label)!;
  expect(second.wal!.frame + second.wal!.epoch * 1e9).toBeGreaterThan(first.wal!.frame + first.wal!.epoch * 1e9);
});

test(
  "a WAL generation without a backup gets an automatic one (point in time " + "needs a base), once; not before backups are used",
  async () => {
    const waitForBackups = async (n: number) => {
      for (let i = 0; i < 300 && listManifests(env.core).length < n; i++) await Bun.sleep(10);
      return listManifests(env.core);
    };
    const owner = await signUp(env, "owner@example.com");
    const keep = () => keepGenerationCovered(env.core, () => startBackupJob(env.core, "automatic"));
    keep();
    await Bun.sleep(50);
    expect(listManifests(env.core)).toEqual([]); // no backup yet: nothing to reach back to, none taken unasked

    // A backup of an earlier generation (as after an upgrade or an unclean stop): the current one has no base.
    const first = readManifest(env.core, (await runBackupNow(env, owner)).result.backup.label)!;
    const other = { ...first, wal: { ...first.wal!, generation: "0000000000000000" } };
    writeFileSync(join(env.dir, "backups", first.label, "manifest.json"), JSON.stringify(other));
    keep();
    const taken = (await waitForBackups(2)).find((m) => m.label !== first.label)!;
    expect([taken.kind, taken.wal?.generation]).toEqual(["automatic", env.core.wal!.position().generation]);
    keep();
    await Bun.sleep(100);
    expect(listManifests(env.core).length).toBe(2); // the generation has its base now
  },
);
