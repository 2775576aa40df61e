import type { Database } from "bun:sqlite";
import { baselineStatements, type Baseline } from "./baseline";

export interface Migration {
  /** The file's tag, e.g. "0000_foundation"; also its order. */
  tag: string;
  sql: string;
}

export class SchemaTooNewError extends Error {}

/**
 * Brings the database to the binary's schema.
 * 1. Refuse a database that has migrations this binary does not know (a newer Cairn wrote
 *    it): a silent downgrade would lose data.
 * 2. If something is pending and the database already holds data, back it up first
 *    (`backUp`: the backups domain's pre-migration backup, given by whoever opens the
 *    instance) so a failed upgrade can be undone; it answers what it wrote (a label).
 * 3. Apply every pending migration in one transaction: all or nothing. Foreign keys are off
 *    meanwhile (the pragma cannot change inside a transaction), so a migration may rebuild a
 *    table the SQLite way (create, copy, drop, rename) without the drop cascading to the rows
 *    that refer to it; every key is checked before COMMIT instead, and any dangling one
 *    rolls the whole upgrade back.
 * 4. A new database (nothing in it yet) given a `baseline` gets it in that transaction, in place
 *    of the migrations it stands for (recorded as applied), then any migration after it.
 */
export function migrate(
  sqlite: Database,
  migrations: Migration[],
  backUp: (() => string) | null,
  now: number,
  baseline?: Baseline,
): { applied: string[]; snapshot: string | null } {
  sqlite.exec("CREATE TABLE IF NOT EXISTS __cairn_migrations (tag TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
  const done = new Set(
    sqlite
      .query<{ tag: string }, []>("SELECT tag FROM __cairn_migrations")
      .all()
      .map((r) => r.tag),
  );
  const known = new Set(migrations.map((m) => m.tag));

  const unknown = [...done].filter((t) => !known.has(t));
  if (unknown.length > 0) {
    throw new SchemaTooNewError(
      `This database was written by a newer version of Cairn (it has migration ` +
        `${unknown.sort().at(-1)}, which this binary does not know). ` +
        `Run the newer cairn binary, or restore a backup made by this version.`,
    );
  }

  // Tags are ASCII with a zero-padded number first: compared by code unit, not by ICU's
  // collation, whose code and tables every start would otherwise page in for this alone.
  const pending = migrations.filter((m) => !done.has(m.tag)).sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  if (pending.length === 0) return { applied: [], snapshot: null };

  const snapshot = done.size > 0 && backUp ? backUp() : null;
  const fromBaseline = baseline && done.size === 0 && isEmpty(sqlite) && known.has(baseline.through) ? baseline : null;

  const foreignKeys = sqlite.query<{ foreign_keys: number }, []>("PRAGMA foreign_keys").get()?.foreign_keys === 1;
  sqlite.exec("PRAGMA foreign_keys = OFF");
  sqlite.exec("BEGIN IMMEDIATE");
  try {
    // The migrations the baseline stands for: every one up to its last (pending is in order).
    const covered = fromBaseline ? pending.findIndex((m) => m.tag === fromBaseline.through) : -1;
    if (fromBaseline) {
      for (const statement of baselineStatements(fromBaseline.sql)) sqlite.exec(statement);
    }
    for (const [i, m] of pending.entries()) {
      if (i <= covered) {
        sqlite.query("INSERT INTO __cairn_migrations (tag, applied_at) VALUES (?, ?)").run(m.tag, new Date(now).toISOString());
        continue;
      }
      for (const statement of m.sql.split("--> statement-breakpoint")) {
        if (statement.trim()) sqlite.exec(statement);
      }
      sqlite.query("INSERT INTO __cairn_migrations (tag, applied_at) VALUES (?, ?)").run(m.tag, new Date(now).toISOString());
    }
    const dangling = sqlite.query<{ table: string; parent: string }, []>("PRAGMA foreign_key_check").all();
    if (dangling.length > 0)
      throw new Error(`migration left ${dangling.length} dangling reference(s), first: ${dangling[0].table} → ${dangling[0].parent}`);
    sqlite.exec("COMMIT");
  } catch (err) {
    // SQLite has already rolled back after some failures (a full disk): the cause is what matters.
    if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
    throw err;
  } finally {
    if (foreignKeys) sqlite.exec("PRAGMA foreign_keys = ON");
  }
  return { applied: pending.map((m) => m.tag), snapshot };
}

/** Nothing but the migrations' own record: a database just created. */
function isEmpty(sqlite: Database): boolean {
  return sqlite.query("SELECT 1 FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name <> '__cairn_migrations' LIMIT 1").get() === null;
}
