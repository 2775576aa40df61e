import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqliteChangeStamp, watchCommits } from "./change-stamp";
import { openSqlite } from "./open";
import { startCountingStatements } from "./statement-count";
import { declareWatchedTable } from "./table-stamps";
import { createTransactions } from "./transactions";

let dir = "";
const opened: Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function open() {
  dir = mkdtempSync(join(tmpdir(), "cairn-commit-watch-"));
  // Opened as the server opens its database (WAL mode, known to the watch).
  const db = openSqlite(join(dir, "t.db"));
  db.run("CREATE TABLE data (v TEXT)");
  db.run("CREATE TABLE watched_small (v TEXT)");
  const other = openSqlite(join(dir, "t.db"));
  opened.push(db, other);
  return { db, other };
}

const nextRun = () => new Promise<void>((done) => setImmediate(done));

test("the WAL index's header moves with every commit, ours and another connection's, and not with reads", () => {
  const { db, other } = open();
  const watch = watchCommits(db)!;
  expect(watch).not.toBeNull();
  expect(watch.moved()).toBe(true); // the first look
  expect(watch.moved()).toBe(false);
  db.query("SELECT count(*) FROM data").get();
  other.query("SELECT count(*) FROM data").get();
  expect(watch.moved()).toBe(false);
  db.run("INSERT INTO data VALUES ('ours')");
  expect(watch.moved()).toBe(true);
  expect(watch.moved()).toBe(false);
  other.run("INSERT INTO data VALUES ('theirs')");
  expect(watch.moved()).toBe(true);
  // A restarted log (after a checkpoint that emptied it) and the next commit.
  db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  watch.moved();
  other.run("INSERT INTO data VALUES ('after the restart')");
  expect(watch.moved()).toBe(true);
});

test("no index to watch in memory or outside WAL mode: the stamp reads data_version once per run instead", async () => {
  const memory = new Database(":memory:");
  opened.push(memory);
  expect(watchCommits(memory)).toBeNull();
  dir = mkdtempSync(join(tmpdir(), "cairn-commit-watch-"));
  const journal = new Database(join(dir, "j.db"), { create: true });
  const other = new Database(join(dir, "j.db"));
  opened.push(journal, other);
  journal.run("CREATE TABLE t (v)");
  expect(watchCommits(journal)).toBeNull();
  const stamp = sqliteChangeStamp(journal);
  const before = stamp.current();
  other.run("INSERT INTO t VALUES (1)");
  expect(stamp.current()).toBe(before); // the same run
  await nextRun();
  expect(stamp.current()).not.toBe(before);
});

test("the stamp is read again only after a commit (no statement otherwise), and sees another connection's commit at once", async () => {
  const { db, other } = open();
  declareWatchedTable({ table: "watched_small" });
  const txs = createTransactions(db, { grouped: false, beforeCommit: [], onError: () => {} });
  const stamp = sqliteChangeStamp(db);
  const tables = ["watched_small"];
  stamp.ofTables(tables);
  await nextRun();

  // Idle runs (a request each, reading kept answers): no statement at all.
  const counter = startCountingStatements({ keepText: true });
  try {
    const s0 = stamp.current();
    for (let i = 0; i < 5; i++) {
      await nextRun();
      expect(stamp.current()).toBe(s0);
      stamp.ofTables(tables);
    }
    expect(counter.texts).toEqual([]);

    // Our own commit: read once after it, and the table stamps of untouched tables hold.
    const small = stamp.ofTables(tables);
    txs.tx(() => db.run("INSERT INTO data VALUES ('ours')"));
    await nextRun();
    counter.reset();
    expect(stamp.current()).not.toBe(s0);
    expect(stamp.ofTables(tables)).toBe(small);
    await nextRun();
    stamp.current();
    expect(counter.texts.filter((t) => t.includes("data_version")).length).toBe(1);

    // A write of ours outside a transaction (which the rules forbid) commits at once: seen too.
    await nextRun();
    const unruly = stamp.current();
    db.run("INSERT INTO data VALUES ('outside tx()')");
    expect(stamp.current()).not.toBe(unruly);

    // Another connection's commit, even to a table nobody watches, moves every stamp at once,
    // even within the synchronous run that read the stamp before it.
    await nextRun();
    const before = stamp.current();
    other.run("INSERT INTO data VALUES ('theirs')");
    expect(stamp.current()).not.toBe(before);
    expect(stamp.ofTables(tables)).not.toBe(small);
  } finally {
    counter.stop();
  }
});
