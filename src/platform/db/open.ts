import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { createCountsTable } from "./table-stamps";

/**
 * Opens the SQLite file with the pragmas of docs/architecture.md ("The database file").
 * busy_timeout is set first so that the pragmas below never fail on a lock held by another process.
 */
export function openSqlite(path: string): Database {
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = FULL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA temp_store = MEMORY");
  // Cairn owns checkpointing (platform/backup/wal-archive.ts): a checkpoint lets the next write
  // restart the log over frames, so none may run before the archive has copied them.
  sqlite.exec("PRAGMA wal_autocheckpoint = 0");
  // Per-table change counts of this connection (table-stamps.ts), made before any transaction.
  createCountsTable(sqlite);
  return sqlite;
}

export function toDrizzle(sqlite: Database) {
  return drizzle({ client: sqlite });
}

export type Db = ReturnType<typeof toDrizzle>;

/** A core with no WAL archive (tests): SQLite checkpoints by itself again, as by default. */
export function letSqliteCheckpoint(sqlite: Database): void {
  sqlite.exec("PRAGMA wal_autocheckpoint = 1000");
}

/** Folds the write-ahead log back into the database file and empties it (a clean stop). */
export function checkpointWal(sqlite: Database): void {
  sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

/** A statement that answers when the database does: the health check's probe. */
export function databaseProbe(sqlite: Database): () => boolean {
  const probe = sqlite.query<{ ok: number }, []>("SELECT 1 AS ok");
  return () => probe.get()?.ok === 1;
}
