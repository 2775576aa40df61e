import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { coverage, NotCoveredError, pruneArchive, restoreToTime } from "./replay";
import { snapshotDatabase } from "./snapshot";
import { abandoned, digestOf, openArchivedDb, scratchDir, type ArchivedDb } from "./testing";
import type { WalPosition } from "./types";
import { listSegments } from "./wal-segments";

const dirs: string[] = [];
afterEach(() => {
  for (const db of abandoned.splice(0)) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A random write to `t`: inserts (some large, spilling pages), updates, deletes, now and then a sweep. */
function randomWrite(db: ArchivedDb, i: number): void {
  db.write((s) => {
    const n = 1 + (i % 4);
    for (let k = 0; k < n; k++) {
      const r = Math.random();
      if (r < 0.55)
        s.query("INSERT INTO t (v) VALUES (?)").run(`${i}:${k}:` + "w".repeat(Math.floor(Math.random() * (r < 0.05 ? 9000 : 400))));
      else if (r < 0.85) s.query("UPDATE t SET v = ? WHERE id = (SELECT id FROM t ORDER BY random() LIMIT 1)").run(`upd ${i}`);
      else s.query("DELETE FROM t WHERE id = (SELECT id FROM t ORDER BY random() LIMIT 1)").run();
    }
    if (i % 200 === 199) s.query("DELETE FROM t WHERE id % 3 = 0").run();
  });
}

async function restoredDigest(archiveDir: string, base: string, basePosition: WalPosition, at: number, out: string) {
  const result = await restoreToTime({ archiveDir, base, basePosition, at, out });
  const db = new Database(out, { readonly: true });
  try {
    return { digest: digestOf(db), result };
  } finally {
    db.close();
  }
}

describe("point-in-time restore", () => {
  test("restoring to the recorded commits of a write-heavy run (checkpoints, " +
    "epochs, a restart) gives the data as it was then", async () => {
    const dir = scratchDir("pitr");
    dirs.push(dir);
    const clock = { now: Date.now() - 86_400_000 };
    let db = openArchivedDb(dir, clock, 60);
    db.write((s) => s.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)"));
    for (let i = 0; i < 20; i++) randomWrite(db, i);
    clock.now += 10;
    const snap = await snapshotDatabase({ sqlite: db.sqlite, dbPath: db.dbPath, archive: db.archive, dest: join(dir, "base.db") });
    const base = snap.position!;
    const baseDigest = digestOf(db.sqlite);
    const recorded: Array<{ at: number; digest: string; epoch: number }> = [
      { at: base.committedAt, digest: baseDigest, epoch: base.epoch },
    ];
    let checkpoints = 0;
    for (let i = 0; i < 900; i++) {
      clock.now += 1 + (i % 3) * 3;
      randomWrite(db, i);
      recorded.push({ at: clock.now, digest: digestOf(db.sqlite), epoch: db.archive.position().epoch });
      if (i % 37 === 0) await Bun.sleep(0); // the archive's own PASSIVE checkpoints run here
      if (i % 150 === 149) checkpoints += db.archive.checkpoint("truncate") ? 1 : 0;
      if (i === 450) {
        db.close();
        db = openArchivedDb(dir, clock, 60);
      }
    }
    const end = db.archive.position();
    expect(end.generation).toBe(base.generation);
    expect(checkpoints).toBeGreaterThanOrEqual(5);
    expect(end.epoch).toBeGreaterThan(8); // passive and truncate checkpoints, and the restart
    const stored = listSegments(join(db.archiveDir, base.generation)).flatMap((s) => s.commits);
    expect(stored.length).toBeGreaterThanOrEqual(900);

    // Each restore replays from the base, so all 900 would be quadratic (40 s): every commit
    // within three of an epoch's change (a checkpoint or the restart: where replay has to
    // switch logs), every seventh besides, and the last ones.
    const nearChange = (k: number) => recorded.slice(Math.max(1, k - 3), k + 4).some((r, j, w) => j > 0 && r.epoch !== w[j - 1].epoch);
    const chosen = recorded.map((_, k) => k).filter((k) => k % 7 === 0 || k > recorded.length - 4 || nearChange(k));
    expect(chosen.length).toBeGreaterThan(150);
    const out = join(dir, "restored.db");
    for (const k of chosen) {
      const { digest, result } = await restoredDigest(db.archiveDir, join(dir, "base.db"), base, recorded[k].at, out);
      if (digest !== recorded[k].digest) throw new Error(`restore to commit ${k} (at ${recorded[k].at}) differs`);
      expect(result.lastCommitAt).toBe(recorded[k].at);
      // Between two commits: the first, not the second.
      if (k + 1 < recorded.length && recorded[k + 1].at - recorded[k].at > 1 && k % 49 === 0) {
        const between = await restoredDigest(db.archiveDir, join(dir, "base.db"), base, recorded[k].at + 1, out);
        expect(between.digest).toBe(recorded[k].digest);
      }
    }
    const check = new Database(out, { readonly: true });
    expect(check.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check).toBe("ok");
    check.close();

    // Before the base: not covered. Past the end of the current generation: covered up to now.
    await expect(
      restoreToTime({ archiveDir: db.archiveDir, base: join(dir, "base.db"), basePosition: base, at: base.committedAt - 1, out }),
    ).rejects.toBeInstanceOf(NotCoveredError);
    const later = await restoredDigest(db.archiveDir, join(dir, "base.db"), base, recorded.at(-1)!.at + 60_000, out);
    expect(later.digest).toBe(recorded.at(-1)!.digest);
    await expect(
      restoreToTime({ archiveDir: db.archiveDir, base: join(dir, "base.db"), basePosition: base, at: Date.now() + 60_000, out }),
    ).rejects.toBeInstanceOf(NotCoveredError);
    expect(coverage(db.archiveDir)).toEqual([{ generation: base.generation, from: expect.any(Number), to: expect.any(Number) }]);

    // Once the generation has ended (an unclean stop), past its last commit is not covered.
    db.crash();
    const next = openArchivedDb(dir, clock, 60);
    await expect(
      restoreToTime({ archiveDir: db.archiveDir, base: join(dir, "base.db"), basePosition: base, at: recorded.at(-1)!.at + 60_000, out }),
    ).rejects.toBeInstanceOf(NotCoveredError);
    expect((await restoredDigest(db.archiveDir, join(dir, "base.db"), base, recorded.at(-1)!.at, out)).digest).toBe(
      recorded.at(-1)!.digest,
    );
    const cov = coverage(db.archiveDir);
    expect(cov.map((c) => c.generation)).toEqual([base.generation, next.archive.position().generation]);
    expect(cov[0].to).toBe(recorded.at(-1)!.at);

    // Pruning keeps what the base needs (and drops the rest), and nothing at all of an unneeded generation.
    pruneArchive(db.archiveDir, [base]);
    expect((await restoredDigest(db.archiveDir, join(dir, "base.db"), base, recorded[600].at, out)).digest).toBe(recorded[600].digest);
    pruneArchive(db.archiveDir, []);
    expect(coverage(db.archiveDir).map((c) => c.generation)).toEqual([next.archive.position().generation]);
    next.close();
  }, 240_000);

  test("a damaged segment is refused, never replayed", async () => {
    const dir = scratchDir("pitr-damage");
    dirs.push(dir);
    const clock = { now: Date.now() - 86_400_000 };
    const db = openArchivedDb(dir, clock);
    db.write((s) => s.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)"));
    const snap = await snapshotDatabase({ sqlite: db.sqlite, dbPath: db.dbPath, archive: db.archive, dest: join(dir, "base.db") });
    for (let i = 0; i < 30; i++) (clock.now += 5), randomWrite(db, i);
    db.archive.flush();
    const genDir = join(db.archiveDir, snap.position!.generation);
    const seg = listSegments(genDir).at(-1)!;
    const file = join(genDir, `${seg.name}.frames`);
    const bytes = new Uint8Array(await Bun.file(file).arrayBuffer());
    bytes[100] ^= 0xff;
    await Bun.write(file, bytes);
    await expect(
      restoreToTime({
        archiveDir: db.archiveDir,
        base: join(dir, "base.db"),
        basePosition: snap.position,
        at: clock.now,
        out: join(dir, "r.db"),
      }),
    ).rejects.toBeInstanceOf(NotCoveredError);
    db.close();
  });
});
