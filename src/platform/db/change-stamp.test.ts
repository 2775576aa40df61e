import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqliteChangeStamp } from "./change-stamp";
import { keptAnswerStats, keptUntilTablesChange, keptUntilWrite } from "./kept-answers";
import { openSqlite } from "./open";
import { createTransactions } from "./transactions";

let dir = "";
const opened: Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function setup() {
  dir = mkdtempSync(join(tmpdir(), "cairn-stamp-"));
  const db = openSqlite(join(dir, "t.db"));
  db.run("CREATE TABLE data (v TEXT)");
  db.run("CREATE TABLE bookkeeping (v TEXT)");
  const other = openSqlite(join(dir, "t.db"));
  opened.push(db, other);
  const txs = createTransactions(db, { grouped: false, beforeCommit: [], onError: () => {} });
  return { db, other, txs, stamp: sqliteChangeStamp(db) };
}

test("a write moves the stamp; bookkeeping leaves it, nested or not; a rollback and another connection's commit move it", () => {
  const { db, other, txs, stamp } = setup();
  const s0 = stamp.current();
  expect(stamp.current()).toBe(s0);
  txs.tx(() => db.run("INSERT INTO data VALUES ('a')"));
  const s1 = stamp.current();
  expect(s1).not.toBe(s0);
  stamp.bookkeeping(() => txs.tx(() => db.run("INSERT INTO bookkeeping VALUES ('x'), ('y')")));
  stamp.bookkeeping(() => stamp.bookkeeping(() => txs.tx(() => db.run("UPDATE bookkeeping SET v = 'z'"))));
  expect(stamp.current()).toBe(s1);
  expect(() => stamp.bookkeeping(() => txs.tx(() => {
    db.run("INSERT INTO bookkeeping VALUES ('w')");
    throw new Error("no");
  }))).toThrow("no");
  const s2 = stamp.current();
  expect(s2).not.toBe(s1); // a rollback moves it, whoever wrote
  other.run("INSERT INTO data VALUES ('b')");
  return new Promise<void>((done) =>
    queueMicrotask(() => {
      expect(stamp.current()).not.toBe(s2);
      done();
    }),
  );
});

test("a kept answer survives bookkeeping and is dropped by a write; its hits and misses are counted", () => {
  const { db, txs, stamp } = setup();
  const kept = keptUntilWrite<number>("stamp-test", 10);
  let computed = 0;
  const count = () => kept(stamp, "n", () => (computed++, db.query<{ n: number }, []>("SELECT count(*) AS n FROM data").get()!.n));
  expect(count()).toBe(0);
  stamp.bookkeeping(() => txs.tx(() => db.run("INSERT INTO bookkeeping VALUES ('x')")));
  expect(count()).toBe(0);
  expect(computed).toBe(1);
  txs.tx(() => db.run("INSERT INTO data VALUES ('a')"));
  expect(count()).toBe(1);
  expect(computed).toBe(2);
  expect(keptAnswerStats()["stamp-test"]).toEqual({ hits: 1, misses: 2, dropped: 1 });
});

test("an answer kept by its tables survives writes to other tables; a write to one of its own (a trigger's or a cascade's too), a rollback and another connection's commit drop it", async () => {
  const { db, other, txs, stamp } = setup();
  db.run("PRAGMA foreign_keys = ON");
  db.run("CREATE TABLE parent (id INTEGER PRIMARY KEY)");
  db.run("CREATE TABLE child (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parent(id) ON DELETE CASCADE)");
  db.run("CREATE TABLE noted (v TEXT)");
  db.run("CREATE TRIGGER note_data AFTER INSERT ON data WHEN new.v = 'noted' BEGIN INSERT INTO noted VALUES (new.v); END");
  txs.tx(() => db.run("INSERT INTO parent VALUES (1)"));
  txs.tx(() => db.run("INSERT INTO child VALUES (1, 1)"));
  const kept = keptUntilTablesChange<number>("tables-test", ["child", "noted"], 10);
  let computed = 0;
  const count = () => kept(stamp, "n", () => (computed++, db.query<{ n: number }, []>("SELECT (SELECT count(*) FROM child) + (SELECT count(*) FROM noted) AS n").get()!.n));
  expect(count()).toBe(1);
  txs.tx(() => db.run("INSERT INTO data VALUES ('a')"));
  stamp.bookkeeping(() => txs.tx(() => db.run("INSERT INTO child VALUES (2, 1)")));
  expect(count()).toBe(1); // not its tables; bookkeeping is left out as before
  expect(computed).toBe(1);
  txs.tx(() => db.run("INSERT INTO data VALUES ('noted')")); // a trigger writes one of its tables
  expect(count()).toBe(3);
  txs.tx(() => db.run("DELETE FROM parent WHERE id = 1")); // a cascade empties child
  expect(count()).toBe(1);
  expect(computed).toBe(3);
  expect(() => txs.tx(() => {
    db.run("INSERT INTO data VALUES ('b')");
    throw new Error("no");
  })).toThrow("no");
  count();
  expect(computed).toBe(4); // a rollback, whatever it undid
  other.run("INSERT INTO noted VALUES ('elsewhere')");
  await new Promise<void>((done) => queueMicrotask(done));
  expect(count()).toBe(2);
  expect(computed).toBe(5);
});
