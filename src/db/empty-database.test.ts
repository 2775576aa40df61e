/**
 * The empty database the binary carries (db/empty-database.ts, platform/db/empty-image.ts): a
 * first start that writes it must hold the database the migrations make, object for object and
 * row for row, with nothing left to migrate.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openCore } from "../core";
import { loadConfig } from "../platform/config";
import { embedEmptyDatabase } from "../platform/db/empty-image";
import { migrate } from "../platform/db/migrate";
import { openSqlite } from "../platform/db/open";
import { silentLogger } from "../platform/log";
import { makeEmptyDatabase } from "./empty-database";
import { baseline, migrations } from "./migrations.gen";

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "cairn-empty-db-"))));
afterEach(() => {
  embedEmptyDatabase(null);
  rmSync(dir, { recursive: true, force: true });
});

/** Every object with its SQL, and every table's rows (the migrations' record by tag only). */
function contents(db: Database) {
  const objects = db
    .query<{ type: string; name: string; sql: string | null }, []>(
      "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name",
    )
    .all();
  const rows: Record<string, unknown[]> = {};
  for (const { name } of objects.filter((o) => o.type === "table")) {
    rows[name] = db.query(`SELECT ${name === "__cairn_migrations" ? "tag" : "*"} FROM "${name}" ORDER BY 1`).values();
  }
  return { objects, rows };
}

test("the image is one WAL-mode database file", () => {
  const bytes = makeEmptyDatabase(dir);
  expect(new TextDecoder().decode(bytes.subarray(0, 15))).toBe("SQLite format 3");
  // File format read and write versions 2: WAL.
  expect([bytes[18], bytes[19]]).toEqual([2, 2]);
});

test("a first start given the image holds the migrations' database, private, with nothing to migrate", () => {
  const image = join(dir, "empty.db.gz");
  writeFileSync(image, Bun.gzipSync(makeEmptyDatabase(mkdtempSync(join(dir, "make-")))));
  embedEmptyDatabase(image);
  const data = join(dir, "data");
  const core = openCore(loadConfig(["--data", data], {}), { log: silentLogger });
  try {
    expect(statSync(join(data, "cairn.db")).mode & 0o777).toBe(0o600);
    expect(core.sqlite.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    const made = openSqlite(join(dir, "migrated.db"));
    migrate(made, migrations, null, 0, baseline);
    expect(contents(core.sqlite)).toEqual(contents(made));
    expect(core.sqlite.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    made.close();
  } finally {
    core.close();
  }
  // An existing database is never replaced by it.
  const again = openCore(loadConfig(["--data", data], {}), { log: silentLogger });
  try {
    again.sqlite.exec("CREATE TABLE IF NOT EXISTS kept_marker (x)");
  } finally {
    again.close();
  }
  const third = openCore(loadConfig(["--data", data], {}), { log: silentLogger });
  try {
    expect(third.sqlite.query("SELECT name FROM sqlite_master WHERE name = 'kept_marker'").get()).toEqual({ name: "kept_marker" });
  } finally {
    third.close();
  }
});
