import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqliteChangeStamp } from "./change-stamp";
import { keptUntilWrite } from "./kept-answers";
import { openSqlite } from "./open";
import { createTransactions } from "./transactions";

let dir = "";
const opened: Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function setup(grouped = false) {
  dir = mkdtempSync(join(tmpdir(), "cairn-table-stamp-"));
  const db = openSqlite(join(dir, "t.db"));
  db.run("CREATE TABLE watched_rules (id INTEGER PRIMARY KEY, v TEXT, used INTEGER NOT NULL DEFAULT 0)");
  db.run("CREATE TABLE other_pages (v TEXT)");
  const other = openSqlite(join(dir, "t.db"));
  opened.push(db, other);
  const txs = createTransactions(db, { grouped, beforeCommit: [], onError: () => {} });
  const stamp = sqliteChangeStamp(db);
  const kept = keptUntilWrite<string[]>(`table-stamp-test-${Math.random()}`, 10, undefined, {
    tables: [{ table: "watched_rules", ignore: ["used"] }],
  });
  let computed = 0;
  const rules = () =>
    kept(
      stamp,
      "rules",
      () => (
        computed++,
        db
          .query<{ v: string }, []>("SELECT v FROM watched_rules ORDER BY id")
          .all()
          .map((r) => r.v)
      ),
    );
  return { db, other, txs, stamp, rules, computed: () => computed };
}

/** The next synchronous run: a commit by another connection is seen there. */
const nextRun = () => new Promise<void>((done) => setTimeout(done, 0));

test("kept until its own table changes: other writes and ignored columns leave it, inserts, updates and deletes drop it", () => {
  const { db, txs, rules, computed } = setup();
  expect(rules()).toEqual([]);
  txs.tx(() => db.run("INSERT INTO other_pages VALUES ('a page edit')"));
  txs.tx(() => db.run("UPDATE watched_rules SET used = used + 1"));
  expect(rules()).toEqual([]);
  expect(computed()).toBe(1);
  txs.tx(() => db.run("INSERT INTO watched_rules (id, v) VALUES (1, 'a')"));
  expect(rules()).toEqual(["a"]);
  txs.tx(() => db.run("INSERT INTO other_pages VALUES ('b')"));
  expect(rules()).toEqual(["a"]);
  expect(computed()).toBe(2);
  txs.tx(() => db.run("UPDATE watched_rules SET used = 5 WHERE id = 1"));
  expect(rules()).toEqual(["a"]);
  txs.tx(() => db.run("UPDATE watched_rules SET v = 'b' WHERE id = 1"));
  expect(rules()).toEqual(["b"]);
  txs.tx(() => db.run("DELETE FROM watched_rules"));
  expect(rules()).toEqual([]);
  expect(computed()).toBe(4);
});

test("an answer worked out inside a rolled-back write is dropped, and no later write brings it back", () => {
  const { db, txs, rules } = setup();
  expect(rules()).toEqual([]);
  expect(() =>
    txs.tx(() => {
      db.run("INSERT INTO watched_rules (id, v) VALUES (1, 'never')");
      expect(rules()).toEqual(["never"]); // the transaction sees its own write
      throw new Error("no");
    }),
  ).toThrow("no");
  expect(rules()).toEqual([]);
  // The count goes back with the rollback; the same count reached again is not the same data.
  txs.tx(() => db.run("INSERT INTO watched_rules (id, v) VALUES (1, 'kept')"));
  expect(rules()).toEqual(["kept"]);
});

test("grouped commits: a change is seen by the very next read, before its group commits", async () => {
  const { db, txs, rules } = setup(true);
  expect(rules()).toEqual([]);
  txs.tx(() => db.run("INSERT INTO watched_rules (id, v) VALUES (1, 'a')"));
  expect(rules()).toEqual(["a"]);
  await txs.durable();
  expect(rules()).toEqual(["a"]);
});

test("another connection's commit drops it (at the next synchronous run)", async () => {
  const { other, rules } = setup();
  expect(rules()).toEqual([]);
  other.run("INSERT INTO watched_rules (id, v) VALUES (1, 'from a command')");
  await nextRun();
  expect(rules()).toEqual(["from a command"]);
});

test("the stamp read once in a synchronous run still moves with a write made in that run", () => {
  const { db, txs, stamp } = setup();
  const before = stamp.current();
  expect(stamp.current()).toBe(before);
  txs.tx(() => db.run("INSERT INTO other_pages VALUES ('a')"));
  const after = stamp.current();
  expect(after).not.toBe(before);
  stamp.bookkeeping(() => txs.tx(() => db.run("UPDATE watched_rules SET used = 1")));
  expect(stamp.current()).toBe(after);
});
