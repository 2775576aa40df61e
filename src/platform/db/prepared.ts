import type { Database } from "bun:sqlite";
import type { SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";

const dialect = new SQLiteSyncDialect();

/**
 * The rows of a drizzle `sql` query, run through bun:sqlite's own statement cache (keyed by the
 * SQL text) instead of drizzle's `db.all`, which prepares the statement again every time. For
 * hot statements whose text is the same from call to call, the values being parameters (lists
 * bound as JSON: lists.ts): search checks each ranked round of pages against the caller's scope
 * with one, where preparing cost as much as running.
 */
export function allPrepared<T>(sqlite: Database, query: SQL): T[] {
  const { sql, params } = dialect.sqlToQuery(query);
  return sqlite.query<T, any[]>(sql).all(...(params as any[]));
}
