/**
 * The migrations baseline (migrations/baseline/, platform/db/migrate.ts): a new database made
 * from it must be the database the whole chain of migrations makes, object for object (tables,
 * indexes, triggers, full-text indexes and their shadow tables) and row for row, and a
 * migration added after it must run on both alike.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate, type Migration } from "../platform/db/migrate";
import { openSqlite } from "../platform/db/open";
import { baseline, migrations } from "./migrations.gen";

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "cairn-baseline-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Everything a database is made of: its objects with their SQL, and every table's rows. */
function contents(db: Database) {
  const objects = db
    .query<{ type: string; name: string; tbl_name: string; sql: string | null }, []>(
      "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name",
    )
    .all();
  const rows: Record<string, unknown[]> = {};
  for (const { name } of objects.filter((o) => o.type === "table")) {
    // The record's times are when each database was made; its tags are compared below.
    const columns = name === "__cairn_migrations" ? "tag" : "*";
    rows[name] = db.query(`SELECT ${columns} FROM "${name}" ORDER BY 1`).values();
  }
  return { objects, rows };
}

function made(name: string, chain: Migration[], withBaseline: boolean) {
  const db = openSqlite(join(dir, `${name}.db`));
  const result = migrate(db, chain, null, 0, withBaseline ? baseline : undefined);
  return { db, result };
}

test("the baseline stands for migrations this binary has, the last of them by default", () => {
  expect(migrations.map((m) => m.tag)).toContain(baseline.through);
});

test("a new database made from the baseline is the one the whole chain makes", () => {
  const chain = made("chain", migrations, false);
  const fromBaseline = made("baseline", migrations, true);
  expect(contents(fromBaseline.db)).toEqual(contents(chain.db));
  expect(fromBaseline.result.applied).toEqual(chain.result.applied);
  expect(fromBaseline.db.query("PRAGMA foreign_key_check").all()).toEqual([]);
  expect(fromBaseline.db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
});

test("the comparison sees a difference: a baseline missing one index is not the chain's database", () => {
  const chain = made("chain", migrations, false);
  const statements = baseline.sql.split("--> statement-breakpoint");
  const index = statements.findIndex((s) => /CREATE (UNIQUE )?INDEX/.test(s));
  const lacking = { ...baseline, sql: statements.filter((_, i) => i !== index).join("--> statement-breakpoint") };
  const db = openSqlite(join(dir, "lacking.db"));
  migrate(db, migrations, null, 0, lacking);
  expect(contents(db)).not.toEqual(contents(chain.db));
});

test("a migration added after the baseline runs on a new database and on a migrated one alike", () => {
  const later: Migration = {
    tag: "9999_later",
    sql: [
      "ALTER TABLE `pages` ADD `later_note` text",
      "CREATE INDEX `pages_later_note_idx` ON `pages` (`later_note`)",
      "CREATE TABLE `later_things` (`id` text PRIMARY KEY NOT NULL, `page_id` text REFERENCES `pages`(`id`) ON DELETE cascade)",
      "INSERT INTO `later_things` (`id`) VALUES ('first')",
    ].join("\n--> statement-breakpoint\n"),
  };
  const chain = made("chain", [...migrations, later], false);
  const fromBaseline = made("baseline", [...migrations, later], true);
  expect(contents(fromBaseline.db)).toEqual(contents(chain.db));
  expect(fromBaseline.result.applied.at(-1)).toBe("9999_later");

  // A database made before the migration existed takes it as an upgrade.
  const older = made("older", migrations, true);
  expect(migrate(older.db, [...migrations, later], null, 0, baseline).applied).toEqual(["9999_later"]);
  expect(contents(older.db)).toEqual(contents(chain.db));
});

test("a database that holds anything is never given the baseline: the chain runs", () => {
  const db = openSqlite(join(dir, "odd.db"));
  db.exec("CREATE TABLE stray (x)");
  // The chain's first migration creates its tables on top; the baseline would have been refused
  // anyway, and nothing of it is applied.
  migrate(db, migrations.slice(0, 1), null, 0, baseline);
  expect(db.query("SELECT count(*) AS n FROM __cairn_migrations").get()).toEqual({ n: 1 });
});
