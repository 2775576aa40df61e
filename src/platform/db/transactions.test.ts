import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "./open";
import { createTransactions } from "./transactions";
import { writeStamp } from "./change-stamp";

let dir = "";
const opened: Database[] = [];

afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The connection under test, a second connection (another process's view) and the module. */
function setup(grouped: boolean) {
  dir = mkdtempSync(join(tmpdir(), "cairn-tx-"));
  const db = openSqlite(join(dir, "t.db"));
  db.run("CREATE TABLE parent (id TEXT PRIMARY KEY)");
  db.run("CREATE TABLE t (v TEXT NOT NULL, p TEXT REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)");
  const other = openSqlite(join(dir, "t.db"));
  opened.push(db, other);
  const errors: string[] = [];
  const hooks: string[] = [];
  const txs = createTransactions(db, { grouped, beforeCommit: [() => hooks.push("hook")], onError: (what) => errors.push(what) });
  const insert = (v: string, p: string | null = null) => db.run("INSERT INTO t (v, p) VALUES (?, ?)", [v, p]);
  const seen = () =>
    other
      .query<{ v: string }, []>("SELECT v FROM t ORDER BY rowid")
      .all()
      .map((r) => r.v);
  return { db, txs, insert, seen, errors, hooks };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("one commit per transaction (grouping off)", () => {
  test("commits at once; nested calls join; beforeCommit hooks run; afterCommit runs after COMMIT", () => {
    const { txs, insert, seen, hooks } = setup(false);
    const afterSaw: string[][] = [];
    txs.tx(() => {
      insert("a");
      txs.tx(() => insert("b"));
      txs.afterCommit(() => afterSaw.push(seen()));
      expect(seen()).toEqual([]);
    });
    expect(seen()).toEqual(["a", "b"]);
    expect(afterSaw).toEqual([["a", "b"]]);
    expect(hooks).toEqual(["hook"]);
    expect(txs.pending()).toBe(false);
  });

  test("a failure rolls everything back and drops its afterCommit work", () => {
    const { db, txs, insert, seen } = setup(false);
    const stamp = writeStamp(db);
    let ran = false;
    expect(() =>
      txs.tx(() => {
        insert("a");
        txs.afterCommit(() => (ran = true));
        throw new Error("no");
      }),
    ).toThrow("no");
    expect([seen(), ran, db.inTransaction]).toEqual([[], false, false]);
    expect(writeStamp(db)).not.toBe(stamp);
  });

  test("refuses an async callback", () => {
    const { txs, seen } = setup(false);
    expect(() => txs.tx(() => Promise.resolve(1))).toThrow("synchronous");
    expect(seen()).toEqual([]);
  });
});

describe("group commit", () => {
  test("the writes of one turn commit together, after the turn; durable() settles then", async () => {
    const { txs, insert, seen } = setup(true);
    const order: string[] = [];
    txs.tx(() => insert("a"));
    txs.tx(() => {
      insert("b");
      txs.afterCommit(() => order.push(`after:${seen().join("")}`));
    });
    // Another process does not see them yet; this connection does.
    expect(seen()).toEqual([]);
    expect(txs.pending()).toBe(true);
    await txs.durable().then(() => order.push("durable"));
    expect(seen()).toEqual(["a", "b"]);
    expect(order).toEqual(["after:ab", "durable"]);
    expect(txs.pending()).toBe(false);
    await txs.durable(); // nothing open: settles at once
  });

  test("a failing member rolls back alone; the others commit; its afterCommit work is dropped", async () => {
    const { db, txs, insert, seen } = setup(true);
    const ran: string[] = [];
    txs.tx(() => {
      insert("a");
      txs.afterCommit(() => ran.push("a"));
    });
    const stamp = writeStamp(db);
    expect(() =>
      txs.tx(() => {
        insert("b");
        txs.afterCommit(() => ran.push("b"));
        throw new Error("refused");
      }),
    ).toThrow("refused");
    expect(writeStamp(db)).not.toBe(stamp); // kept answers worked out from "b" are dropped
    txs.tx(() => insert("c"));
    await txs.durable();
    expect([seen(), ran, txs.failures()]).toEqual([["a", "c"], ["a"], 0]);
  });

  test("afterCommit outside a transaction waits for the open group, or runs at once", async () => {
    const { txs, insert, seen } = setup(true);
    const saw: string[][] = [];
    txs.afterCommit(() => saw.push(seen()));
    expect(saw).toEqual([[]]);
    txs.tx(() => insert("a"));
    txs.afterCommit(() => saw.push(seen()));
    expect(saw.length).toBe(1);
    await nextTurn();
    expect(saw).toEqual([[], ["a"]]);
  });

  test("a COMMIT that fails loses the whole group, counts a failure and drops the afterCommit work", async () => {
    const { db, txs, insert, seen, errors } = setup(true);
    let ran = false;
    txs.tx(() => insert("a"));
    txs.tx(() => {
      insert("b", "no such parent"); // a deferred foreign key: refused only at COMMIT
      txs.afterCommit(() => (ran = true));
    });
    await txs.durable();
    expect([seen(), ran, txs.failures(), txs.pending(), db.inTransaction]).toEqual([[], false, 1, false, false]);
    expect(errors).toEqual(["group commit failed"]);
    // The next group is a new transaction and commits normally.
    txs.tx(() => insert("c"));
    await txs.durable();
    expect(seen()).toEqual(["c"]);
  });

  test("a member that makes SQLite roll back the whole transaction fails the group at once", async () => {
    const { db, txs, insert, seen } = setup(true);
    db.run("CREATE TRIGGER t_refuse BEFORE INSERT ON t WHEN NEW.v = 'boom' BEGIN SELECT RAISE(ROLLBACK, 'refused by trigger'); END");
    let ran = false;
    txs.tx(() => {
      insert("a");
      txs.afterCommit(() => (ran = true));
    });
    expect(() => txs.tx(() => insert("boom"))).toThrow("refused by trigger");
    expect([txs.pending(), txs.failures(), db.inTransaction]).toEqual([false, 1, false]);
    await nextTurn();
    txs.tx(() => insert("c"));
    await txs.durable();
    expect([seen(), ran]).toEqual([["c"], false]);
  });

  test("flush() commits now; it is refused inside a transaction", () => {
    const { txs, insert, seen } = setup(true);
    txs.tx(() => insert("a"));
    txs.tx(() => expect(() => txs.flush()).toThrow("inside a transaction"));
    txs.flush();
    expect([seen(), txs.pending()]).toEqual([["a"], false]);
  });
});

describe("the WAL archive's observer", () => {
  function observed(grouped: boolean) {
    dir = mkdtempSync(join(tmpdir(), "cairn-tx-"));
    const db = openSqlite(join(dir, "t.db"));
    db.run("CREATE TABLE t (v TEXT NOT NULL)");
    opened.push(db);
    const moments: string[] = [];
    const txs = createTransactions(db, {
      grouped,
      beforeCommit: [],
      onError: () => {},
      observe: (m) => moments.push(`${m}${db.inTransaction ? " in tx" : ""}`),
    });
    return { db, txs, moments };
  }

  test("one commit per transaction: locked right after BEGIN IMMEDIATE, released after COMMIT, and after a ROLLBACK", () => {
    const { db, txs, moments } = observed(false);
    txs.tx(() => db.run("INSERT INTO t VALUES ('a')"));
    expect(() =>
      txs.tx(() => {
        db.run("INSERT INTO t VALUES ('b')");
        throw new Error("no");
      }),
    ).toThrow("no");
    expect(moments).toEqual(["locked in tx", "released", "locked in tx", "released"]);
  });

  test("grouped: one locked when the group opens, one released when it commits", async () => {
    const { db, txs, moments } = observed(true);
    txs.tx(() => db.run("INSERT INTO t VALUES ('a')"));
    txs.tx(() => db.run("INSERT INTO t VALUES ('b')"));
    expect(moments).toEqual(["locked in tx"]);
    await txs.durable();
    expect(moments).toEqual(["locked in tx", "released"]);
  });
});

describe("unsynced transactions (committed without an fsync of their own)", () => {
  /** synchronous as the connection has it now: 1 NORMAL, 2 FULL. */
  const level = (db: Database) => db.query<{ synchronous: number }, []>("PRAGMA synchronous").get()!.synchronous;

  test("one commit per transaction: NORMAL for that one, FULL again after its COMMIT and after a rollback", () => {
    const { db, txs, insert, seen } = setup(false);
    const during: number[] = [];
    txs.tx(() => (insert("a"), during.push(level(db))), { unsynced: true });
    expect(seen()).toEqual(["a"]);
    expect(level(db)).toBe(2);
    expect(() =>
      txs.tx(
        () => (
          insert("b"),
          during.push(level(db)),
          (() => {
            throw new Error("no");
          })()
        ),
        { unsynced: true },
      ),
    ).toThrow("no");
    expect(level(db)).toBe(2);
    txs.tx(() => (insert("c"), during.push(level(db))));
    expect(during).toEqual([1, 1, 2]);
    expect(seen()).toEqual(["a", "c"]);
  });

  test("grouped: a synced write never shares an unsynced group; it commits that one first and opens its own", async () => {
    const { db, txs, insert, seen } = setup(true);
    const during: number[] = [];
    txs.tx(() => (insert("slice"), during.push(level(db))), { unsynced: true });
    expect(seen()).toEqual([]);
    txs.tx(() => (insert("edit"), during.push(level(db))));
    // The unsynced group was committed when the synced write came; the synced one waits for the turn's end.
    expect(seen()).toEqual(["slice"]);
    expect(txs.pending()).toBe(true);
    await txs.durable();
    expect(seen()).toEqual(["slice", "edit"]);
    expect(during).toEqual([1, 2]);
    expect(level(db)).toBe(2);
  });

  test("grouped: an unsynced write joins an open synced group (synced); unsynced members share their own group", async () => {
    const { db, txs, insert, seen } = setup(true);
    const during: number[] = [];
    txs.tx(() => (insert("edit"), during.push(level(db))));
    txs.tx(() => (insert("slice"), during.push(level(db))), { unsynced: true });
    await txs.durable();
    expect(seen()).toEqual(["edit", "slice"]);
    txs.tx(() => (insert("s1"), during.push(level(db))), { unsynced: true });
    txs.tx(() => (insert("s2"), during.push(level(db))), { unsynced: true });
    expect(seen()).toEqual(["edit", "slice"]);
    await txs.durable();
    expect(seen()).toEqual(["edit", "slice", "s1", "s2"]);
    expect(during).toEqual([2, 2, 1, 1]);
    expect(level(db)).toBe(2);
  });

  test("grouped: a failing unsynced member leaves the level FULL once its group ends", async () => {
    const { db, txs, insert, seen } = setup(true);
    expect(() =>
      txs.tx(
        () => (
          insert("x"),
          (() => {
            throw new Error("no");
          })()
        ),
        { unsynced: true },
      ),
    ).toThrow("no");
    await txs.durable();
    expect(seen()).toEqual([]);
    expect(level(db)).toBe(2);
  });
});
