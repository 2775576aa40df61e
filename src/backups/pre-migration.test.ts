import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrations } from "../db/migrations.gen";
import { openInstance } from "../instance";
import { loadConfig } from "../platform/config";
import { migrate } from "../platform/db/migrate";
import { openSqlite } from "../platform/db/open";
import { silentLogger } from "../platform/log";
import { listManifestsIn } from "./store";
import { sha256File } from "./testing";

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "cairn-premigration-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test("opening a database one migration behind takes a page-exact pre-migration backup first, in the backups' own format", () => {
  // A data directory as the previous release left it: every migration but the last, some data.
  const db = openSqlite(join(dir, "cairn.db"));
  migrate(db, migrations.slice(0, -1), null, 0);
  const now = "2026-01-01T00:00:00.000Z";
  db.exec(`INSERT INTO roles (id, name, tier, permissions, created_at) VALUES ('r1', 'User', 0, '[]', '${now}')`);
  db.exec(
    `INSERT INTO users (id, email, display_name, password_hash, role_id, created_at, ` +
      `updated_at) VALUES ('u1', 'a@example.com', 'A', 'x', 'r1', '${now}', '${now}')`,
  );
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
  const before = sha256File(join(dir, "cairn.db"));
  // An earlier release's snapshot is left where it is, not listed.
  mkdirSync(join(dir, "backups"));
  writeFileSync(join(dir, "backups", "pre-migration-2025-01-01T00-00-00-000Z.db"), "an old VACUUM INTO copy");

  const core = openInstance(loadConfig(["--data", dir], {}), { log: silentLogger });
  core.close();

  const [m, ...more] = listManifestsIn(join(dir, "backups"));
  expect(more).toEqual([]);
  expect(m).toMatchObject({ kind: "pre-migration", schemaVersion: migrations.at(-2)!.tag, sha256: before, wal: null, removedAt: null });
  expect(m.counts.users).toBe(1);
  expect(sha256File(join(dir, "backups", m.label, "cairn.db"))).toBe(before);
  expect(readdirSync(join(dir, "backups", m.label)).sort()).toEqual(["cairn.db", "manifest.json"]);
  expect(existsSync(join(dir, "backups", "pre-migration-2025-01-01T00-00-00-000Z.db"))).toBe(true);
});

test("a new database, or one already current, takes none", () => {
  openInstance(loadConfig(["--data", dir], {}), { log: silentLogger }).close();
  openInstance(loadConfig(["--data", dir], {}), { log: silentLogger }).close();
  expect(listManifestsIn(join(dir, "backups"))).toEqual([]);
  expect(existsSync(join(dir, "backups"))).toBe(true);
});
