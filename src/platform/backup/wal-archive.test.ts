import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fastestOfSync } from "../../../tests/fastest";
import { createTransactions } from "../db/transactions";
import { abandoned, openArchivedDb, scratchDir } from "./testing";
import { listSegments } from "./wal-segments";
import { readArchiveState } from "./wal-state";

const dirs: string[] = [];
afterEach(() => {
  for (const db of abandoned.splice(0)) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(checkpointFrames = 1000) {
  const dir = scratchDir("wal");
  dirs.push(dir);
  const clock = { now: Date.now() - 86_400_000 };
  return { dir, clock, db: openArchivedDb(dir, clock, checkpointFrames) };
}

function commitsOf(archiveDir: string, generation: string) {
  return listSegments(join(archiveDir, generation)).flatMap((s) => s.commits.map((c) => ({ epoch: s.epoch, ...c })));
}

describe("the WAL archive", () => {
  test("every commit is archived with its time; positions follow the log", () => {
    const { db, clock } = setup();
    db.write((s) => s.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"));
    for (let i = 0; i < 20; i++) {
      clock.now += 5;
      db.write((s) => s.query("INSERT INTO t (v) VALUES (?)").run(`v${i}`));
      expect(db.archive.position().committedAt).toBe(clock.now);
    }
    const pos = db.archive.position();
    expect(pos.epoch).toBe(0);
    expect(pos.frame).toBeGreaterThanOrEqual(21);
    expect(pos.salt).toMatch(/^[0-9a-f]{16}$/);
    const commits = commitsOf(db.archiveDir, pos.generation);
    expect(commits).toHaveLength(21);
    expect(commits.at(-1)!.frame).toBe(pos.frame);
    db.close();
  });

  test("our checkpoints and the restarts they allow begin new epochs of the same generation; a clean restart continues it", () => {
    const { dir, db, clock } = setup();
    db.write((s) => s.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"));
    const generation = db.archive.position().generation;
    expect(db.archive.checkpoint("passive")).toBe(true);
    clock.now += 5;
    db.write((s) => s.query("INSERT INTO t (v) VALUES ('after passive')").run());
    expect(db.archive.position()).toMatchObject({ generation, epoch: 1, frame: 1 });
    expect(db.archive.checkpoint("truncate")).toBe(true);
    db.write((s) => s.query("INSERT INTO t (v) VALUES ('after truncate')").run());
    expect(db.archive.position()).toMatchObject({ generation, epoch: 2, frame: 1 });
    db.close();
    expect(readArchiveState(db.archiveDir)?.clean).not.toBeNull();
    const again = openArchivedDb(dir, clock);
    expect(again.archive.position()).toMatchObject({ generation, epoch: 2, frame: 1 });
    again.write((s) => s.query("INSERT INTO t (v) VALUES ('after restart')").run());
    expect(again.archive.position()).toMatchObject({ generation, epoch: 3, frame: 1 });
    again.close();
  });

  test("a restart of the log by another process: continued when our last frame is intact, a new generation when it is not", () => {
    const { db } = setup();
    db.write((s) => s.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"));
    for (let i = 0; i < 10; i++) db.write((s) => s.query("INSERT INTO t (v) VALUES (?)").run("x".repeat(3000)));
    const generation = db.archive.position().generation;
    // Another process writes (unobserved), folds the log and restarts it with one small write.
    const other = new Database(db.dbPath);
    other.exec("PRAGMA wal_autocheckpoint = 0");
    other.query("INSERT INTO t (v) VALUES ('theirs 1')").run();
    other.exec("PRAGMA wal_checkpoint(PASSIVE)");
    other.query("INSERT INTO t (v) VALUES ('theirs 2')").run();
    db.write((s) => s.query("INSERT INTO t (v) VALUES ('ours')").run());
    expect(db.archive.position()).toMatchObject({ generation, epoch: 1 });
    const commits = commitsOf(db.archiveDir, generation);
    // theirs 1 was salvaged from the old epoch's tail, theirs 2 and ours are in the new one.
    expect(commits.filter((c) => c.epoch === 0)).toHaveLength(12);
    expect(commits.filter((c) => c.epoch === 1)).toHaveLength(2);
    // Now it overwrites everything we saw before we look: continuity is lost.
    for (let i = 0; i < 3; i++) other.query("INSERT INTO t (v) VALUES (?)").run("y".repeat(3000));
    other.exec("PRAGMA wal_checkpoint(PASSIVE)");
    for (let i = 0; i < 6; i++) other.query("INSERT INTO t (v) VALUES (?)").run("z".repeat(3000));
    db.write((s) => s.query("INSERT INTO t (v) VALUES ('ours again')").run());
    expect(db.archive.position().generation).not.toBe(generation);
    other.close();
    db.close();
  });

  test("an unclean stop or a database changed while stopped begins a new generation; a crash's open segment is sealed", () => {
    const { dir, db, clock } = setup();
    db.write((s) => s.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"));
    db.write((s) => s.query("INSERT INTO t (v) VALUES ('a')").run());
    const first = db.archive.position().generation;
    db.crash();
    const after = openArchivedDb(dir, clock);
    const second = after.archive.position().generation;
    expect(second).not.toBe(first);
    const sealed = listSegments(join(after.archiveDir, first));
    expect(sealed.every((s) => s.closed !== null)).toBe(true);
    expect(sealed.flatMap((s) => s.commits)).toHaveLength(2);
    after.close();
    abandoned.splice(0).forEach((c) => c.close());
    // Changed while stopped.
    const outside = new Database(join(dir, "cairn.db"));
    outside.query("INSERT INTO t (v) VALUES ('behind our back')").run();
    outside.close();
    const third = openArchivedDb(dir, clock);
    expect(third.archive.position().generation).not.toBe(second);
    third.close();
    expect(readdirSync(third.archiveDir).filter((n) => n !== "state.json")).toHaveLength(3);
  });

  test("checkpoints wait while suspended or while a reader holds the log (busy → later, never a stall)", () => {
    const { db } = setup();
    db.write((s) => s.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"));
    const release = db.archive.suspendCheckpoints();
    expect(db.archive.checkpoint("truncate")).toBe(false);
    release();
    const reader = new Database(db.dbPath);
    reader.exec("BEGIN");
    reader.query("SELECT count(*) FROM t").get();
    db.write((s) => s.query("INSERT INTO t (v) VALUES ('a')").run());
    expect(db.archive.checkpoint("truncate")).toBe(false);
    // A checkpoint that waited on the reader would stall on every try.
    expect(fastestOfSync(5, () => expect(db.archive.checkpoint("truncate")).toBe(false))).toBeLessThan(50);
    reader.exec("ROLLBACK");
    reader.close();
    expect(db.archive.checkpoint("truncate")).toBe(true);
    db.close();
  });

  test("two restarts by another process between our looks: a new generation, even with our last frame intact", () => {
    const { db } = setup();
    db.write((s) => s.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"));
    for (let i = 0; i < 10; i++) db.write((s) => s.query("INSERT INTO t (v) VALUES (?)").run("x".repeat(3000)));
    const generation = db.archive.position().generation;
    const other = new Database(db.dbPath);
    other.exec("PRAGMA wal_autocheckpoint = 0");
    for (let round = 0; round < 2; round++) {
      other.exec("PRAGMA wal_checkpoint(PASSIVE)");
      other.query("INSERT INTO t (v) VALUES ('theirs')").run();
    }
    db.write((s) => s.query("INSERT INTO t (v) VALUES ('ours')").run());
    expect(db.archive.position().generation).not.toBe(generation);
    other.close();
    db.close();
  });

  test("after our TRUNCATE(s) the next header continues the generation, whoever writes it", () => {
    const { db } = setup();
    db.write((s) => s.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"));
    const generation = db.archive.position().generation;
    expect(db.archive.checkpoint("truncate")).toBe(true);
    expect(db.archive.checkpoint("truncate")).toBe(true);
    db.write((s) => s.query("INSERT INTO t (v) VALUES ('ours')").run());
    expect(db.archive.position()).toMatchObject({ generation, epoch: 1, frame: 1 });
    expect(db.archive.checkpoint("truncate")).toBe(true);
    const other = new Database(db.dbPath);
    other.exec("PRAGMA wal_autocheckpoint = 0");
    other.query("INSERT INTO t (v) VALUES ('theirs')").run();
    db.write((s) => s.query("INSERT INTO t (v) VALUES ('ours again')").run());
    expect(db.archive.position()).toMatchObject({ generation, epoch: 2, frame: 2 });
    other.close();
    db.close();
  });

  test(
    "looking at the log between our writes follows another process's restarts one " +
      "at a time (Litestream's checkpoints on an idle server)",
    async () => {
      const dir = scratchDir("wal-poll");
      dirs.push(dir);
      const db = openArchivedDb(dir, { now: Date.now() }, 1000, 20);
      db.write((s) => s.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"));
      for (let i = 0; i < 10; i++) db.write((s) => s.query("INSERT INTO t (v) VALUES (?)").run("x".repeat(3000)));
      const generation = db.archive.position().generation;
      const other = new Database(db.dbPath);
      other.exec("PRAGMA wal_autocheckpoint = 0");
      for (let round = 0; round < 4; round++) {
        // Their writes, seen by a look; then their checkpoint and the small write that restarts the log.
        for (let i = 0; i < 4; i++) other.query("INSERT INTO t (v) VALUES (?)").run("y".repeat(3000));
        await Bun.sleep(80);
        other.exec("PRAGMA wal_checkpoint(PASSIVE)");
        other.query("INSERT INTO t (v) VALUES ('theirs')").run();
        await Bun.sleep(80);
      }
      db.write((s) => s.query("INSERT INTO t (v) VALUES ('ours')").run());
      expect(db.archive.position()).toMatchObject({ generation, epoch: 4 });
      other.close();
      db.close();
    },
  );
  test(
    "under steady grouped writers the log is checkpointed (on its thread, then a small tail " +
      "between our writes) and restarts, staying small; every commit archived",
    async () => {
      const dir = scratchDir("wal-steady");
      dirs.push(dir);
      const db = openArchivedDb(dir, { now: Date.now() }, 100);
      // The server's group commit: a transaction open across most of each turn of the event loop.
      const txs = createTransactions(db.sqlite, {
        grouped: true,
        beforeCommit: [],
        onError: (what, err) => console.error(what, err),
        observe: (m) => db.archive.observe(m),
      });
      txs.tx(() => db.sqlite.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"));
      await txs.durable();
      const generation = db.archive.position().generation;
      let largestLog = 0;
      const writes = 600;
      for (let i = 0; i < writes; i++) {
        txs.tx(() => db.sqlite.query("INSERT INTO t (v) VALUES (?)").run("x".repeat(3000)));
        await txs.durable();
        largestLog = Math.max(largestLog, statSync(`${db.dbPath}-wal`).size);
      }
      const pos = db.archive.position();
      expect(pos.generation).toBe(generation);
      // Without restarts the log would hold ~600 frames (2.4 MB) by now.
      expect(pos.epoch).toBeGreaterThanOrEqual(3);
      expect(largestLog).toBeLessThan(400 * 4120);
      expect(commitsOf(db.archiveDir, generation)).toHaveLength(writes + 1);
      // One more round and close at once, the thread's checkpoint likely still running: the
      // TRUNCATE at close waits for it rather than finding the log busy.
      for (let i = 0; i < 150; i++) txs.tx(() => db.sqlite.query("INSERT INTO t (v) VALUES (?)").run("y".repeat(3000)));
      txs.flush();
      expect(db.archive.checkpoint("truncate")).toBe(true);
      expect(statSync(`${db.dbPath}-wal`).size).toBe(0);
      db.close();
    },
  );
});
