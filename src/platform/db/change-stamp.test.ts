import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqliteChangeStamp } from "./change-stamp";
import { keptAnswerStats, keptUntilWrite } from "./kept-answers";
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
  expect(() =>
    stamp.bookkeeping(() =>
      txs.tx(() => {
        db.run("INSERT INTO bookkeeping VALUES ('w')");
        throw new Error("no");
      }),
    ),
  ).toThrow("no");
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
