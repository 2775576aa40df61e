import { afterEach, beforeEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate, SchemaTooNewError } from "./migrate";
import { openSqlite } from "./open";

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "cairn-mig-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const m1 = { tag: "0000_a", sql: "CREATE TABLE a (id INTEGER PRIMARY KEY);--> statement-breakpoint\nINSERT INTO a VALUES (1);" };
const m2 = { tag: "0001_b", sql: "CREATE TABLE b (id INTEGER PRIMARY KEY);" };

test("opens with the pragmas docs/architecture.md names", () => {
  const db = openSqlite(join(dir, "x.db"));
  expect(db.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
  expect(db.query("PRAGMA synchronous").get()).toEqual({ synchronous: 2 });
  expect(db.query("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 });
  expect((db.query("PRAGMA busy_timeout").get() as { timeout: number }).timeout).toBeGreaterThan(0);
  db.close();
});

test("a new file and an existing rollback-journal file both open as WAL (the new one switched with its journal in memory)", () => {
  const fresh = openSqlite(join(dir, "new.db"));
  fresh.exec("CREATE TABLE t (id INTEGER PRIMARY KEY)");
  fresh.close();
  const reopened = openSqlite(join(dir, "new.db"));
  expect(reopened.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
  expect(reopened.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 0 });
  reopened.close();
  const legacy = new Database(join(dir, "old.db"));
  legacy.exec("PRAGMA journal_mode = DELETE; CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t VALUES (1);");
  legacy.close();
  const old = openSqlite(join(dir, "old.db"));
  expect(old.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
  expect(old.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 1 });
  old.close();
});

test("applies pending migrations once, snapshotting an existing database first", () => {
  const db = openSqlite(join(dir, "x.db"));
  // The backup (the backups domain's pre-migration one) is taken before anything is applied.
  const backUp = () => {
    const path = join(dir, "before.db");
    expect(db.query("SELECT count(*) AS n FROM sqlite_master WHERE name = 'b'").get()).toEqual({ n: 0 });
    db.query("VACUUM INTO ?").run(path);
    return path;
  };
  expect(migrate(db, [m1], backUp, 0)).toEqual({ applied: ["0000_a"], snapshot: null });
  expect(migrate(db, [m1], backUp, 0).applied).toEqual([]);
  const second = migrate(db, [m1, m2], backUp, Date.parse("2026-05-01T00:00:00Z"));
  expect(second.applied).toEqual(["0001_b"]);
  expect(second.snapshot).toBe(join(dir, "before.db"));
  expect(existsSync(second.snapshot!)).toBe(true);
  db.close();
});

test("a failing migration leaves nothing behind (one transaction)", () => {
  const db = openSqlite(join(dir, "x.db"));
  const broken = { tag: "0001_broken", sql: "CREATE TABLE c (id INTEGER);--> statement-breakpoint\nTHIS IS NOT SQL;" };
  expect(() => migrate(db, [m1, broken], null, 0)).toThrow();
  expect(db.query("SELECT name FROM sqlite_master WHERE name IN ('a','c')").all()).toEqual([]);
  expect(db.query("SELECT count(*) AS n FROM __cairn_migrations").get()).toEqual({ n: 0 });
  db.close();
});

test("a database written by a newer Cairn is refused with a clear message", () => {
  const db = openSqlite(join(dir, "x.db"));
  migrate(db, [m1, m2], null, 0);
  expect(() => migrate(db, [m1], null, 0)).toThrow(SchemaTooNewError);
  expect(() => migrate(db, [m1], null, 0)).toThrow(/newer version of Cairn.*0001_b/);
  db.close();
});

test("a table rebuilt by a migration keeps the rows that refer to it (foreign keys off meanwhile, on again after)", () => {
  const db = openSqlite(join(dir, "x.db"));
  const parent = {
    tag: "0000_p",
    sql:
      "CREATE TABLE p (id INTEGER PRIMARY KEY, big TEXT, small TEXT);--> statement-breakpoint\nCREATE TABLE c (id " +
      "INTEGER PRIMARY KEY, p_id INTEGER REFERENCES p(id) ON DELETE CASCADE);--> statement-breakpoint\nINSERT INTO p " +
      "VALUES (1, 'x', 'y');--> statement-breakpoint\nINSERT INTO c VALUES (10, 1);",
  };
  const rebuild = {
    tag: "0001_rebuild",
    sql:
      "CREATE TABLE p_new (id INTEGER PRIMARY KEY, small TEXT, big TEXT);--> statement-breakpoint\nINSERT INTO p_new SELECT id, " +
      "small, big FROM p;--> statement-breakpoint\nDROP TABLE p;--> statement-breakpoint\nALTER TABLE p_new RENAME TO p;",
  };
  migrate(db, [parent, rebuild], null, 0);
  expect(db.query("SELECT id, p_id FROM c").all()).toEqual([{ id: 10, p_id: 1 }]);
  expect(db.query("SELECT * FROM p").get()).toEqual({ id: 1, small: "y", big: "x" });
  expect(db.query("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 });
  db.close();
});

test("a migration that leaves a dangling reference is rolled back whole", () => {
  const db = openSqlite(join(dir, "x.db"));
  const parent = {
    tag: "0000_p",
    sql:
      "CREATE TABLE p (id INTEGER PRIMARY KEY);--> statement-breakpoint\nCREATE TABLE c (id INTEGER PRIMARY KEY, p_id INTEGER " +
      "REFERENCES p(id));--> statement-breakpoint\nINSERT INTO p VALUES (1);--> statement-breakpoint\nINSERT INTO c VALUES (10, 1);",
  };
  migrate(db, [parent], null, 0);
  const loses = { tag: "0001_loses", sql: "CREATE TABLE d (id INTEGER);--> statement-breakpoint\nDELETE FROM p;" };
  expect(() => migrate(db, [parent, loses], null, 0)).toThrow(/dangling reference/);
  expect(db.query("SELECT count(*) AS n FROM p").get()).toEqual({ n: 1 });
  expect(db.query("SELECT name FROM sqlite_master WHERE name = 'd'").get()).toBeNull();
  expect(db.query("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 });
  db.close();
});
