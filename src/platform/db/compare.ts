/**
 * Comparing a database with another file of the same schema (what a restore would lose): the
 * rows of a table that only the live one has, by key. Reads both whole tables; run it off the
 * server's thread on a large database (backups/restore-preview.ts does, in a child process).
 */
import { Database } from "bun:sqlite";

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Opens `live` with `other` attached as "other", runs fn (reads only), closes. Not read-only:
 * a WAL file opened read-only without its -shm (a fresh copy in tmp/) does not open.
 */
export function withAttached<T>(live: string, other: string, fn: (db: Database) => T): T {
  const db = new Database(live, { strict: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.query("ATTACH DATABASE ? AS other").run(other);
    return fn(db);
  } finally {
    db.close();
  }
}

/** How many rows of `table` (main) have no row of the same key in other.table; 0 when either lacks the table. */
export function rowsOnlyInMain(db: Database, table: string, keys: string[], where = "1"): number {
  const has = (schema: string) =>
    db.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM ${schema}.sqlite_master WHERE type = 'table' AND name = ?`).get(table)
      ?.n === 1;
  if (!has("main")) return 0;
  const t = quote(table);
  if (!has("other")) return db.query<{ n: number }, []>(`SELECT count(*) AS n FROM main.${t} AS l WHERE ${where}`).get()?.n ?? 0;
  const match = keys.map((k) => `r.${quote(k)} = l.${quote(k)}`).join(" AND ");
  return (
    db
      .query<{ n: number }, []>(
        `SELECT count(*) AS n FROM main.${t} AS l WHERE ${where} AND NOT EXISTS (SELECT 1 FROM other.${t} AS r WHERE ${match})`,
      )
      .get()?.n ?? 0
  );
}
