import { Database, type Statement } from "bun:sqlite";
import { statSync } from "node:fs";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { createCountsTable } from "./table-stamps";

/**
 * Opens the SQLite file with the pragmas of docs/architecture.md ("The database file").
 * busy_timeout is set first so that the pragmas below never fail on a lock held by another process.
 */
/**
 * bun:sqlite's statement cache (`query`) keeps the 20 texts used last: fewer than one request's
 * distinct statements, so those held nowhere else (`allPrepared`, statements built per call)
 * were compiled again every time. Set once, for every database opened after it.
 */
const QUERY_CACHE_SIZE = 256;

export function openSqlite(path: string): Database {
  if (Database.MAX_QUERY_CACHE_SIZE < QUERY_CACHE_SIZE) Database.MAX_QUERY_CACHE_SIZE = QUERY_CACHE_SIZE;
  const fresh = isEmptyOrMissing(path);
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA busy_timeout = 5000");
  // A new file becomes a WAL database by rewriting its first page in a transaction of its own:
  // with the default rollback journal that is a journal file created, fsynced twice and its
  // directory fsynced (~17 ms of a cold start's wall time on a plain disk) to protect a database
  // that holds nothing yet. Its journal is kept in memory for that one change; the page itself is
  // still fsynced at its commit (the WAL is only read while that page says WAL).
  if (fresh) sqlite.exec("PRAGMA journal_mode = MEMORY");
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

function isEmptyOrMissing(path: string): boolean {
  try {
    return statSync(path).size === 0;
  } catch {
    return true;
  }
}

/** Statements drizzle's queries keep prepared, per database (the least recently run go first). */
const KEPT_STATEMENTS = 256;

export function toDrizzle(sqlite: Database) {
  return drizzle({ client: keepingStatements(sqlite) });
}

/**
 * The database as drizzle sees it, its statements prepared once. Drizzle's bun-sqlite session
 * prepares every query it runs again (`client.prepare(text)`, never reused), and bun:sqlite's
 * own cache (`query`) keeps only its 20 latest texts: a page write ran some 30 statements
 * through the query builder, each compiled by SQLite again. Kept by their text here; the values
 * are parameters, so the texts repeat. Safe to share: every drizzle call runs its statement to
 * the end synchronously (run, all, values), and SQLite prepares a statement again by itself
 * when the schema changed under it.
 */
function keepingStatements(sqlite: Database): Database {
  const kept = new Map<string, Statement>();
  const prepare = (text: string) => {
    let stmt = kept.get(text);
    if (stmt !== undefined) {
      // Most recently used last, so the first entry is the one to let go.
      kept.delete(text);
      kept.set(text, stmt);
      return stmt;
    }
    stmt = sqlite.prepare(text);
    if (kept.size >= KEPT_STATEMENTS) kept.delete(kept.keys().next().value!);
    kept.set(text, stmt);
    return stmt;
  };
  return new Proxy(sqlite, {
    get(target, prop) {
      if (prop === "prepare") return prepare;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
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

/** Gives back the page cache's memory (what start-up read); it fills again as pages are read. */
export function releaseCacheMemory({ sqlite }: { sqlite: Database }): void {
  sqlite.exec("PRAGMA shrink_memory");
}

/** A statement that answers when the database does: the health check's probe. */
export function databaseProbe({ sqlite }: { sqlite: Database }): () => boolean {
  const probe = sqlite.query<{ ok: number }, []>("SELECT 1 AS ok");
  return () => probe.get()?.ok === 1;
}
