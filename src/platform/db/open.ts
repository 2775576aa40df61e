import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { noteRollback } from "./write-stamp";

/**
 * Opens the SQLite file with the pragmas of DESIGN.md §2. busy_timeout is set first so that
 * the pragmas below never fail on a lock held by another process.
 */
export function openSqlite(path: string): Database {
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = FULL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA temp_store = MEMORY");
  return sqlite;
}

export function toDrizzle(sqlite: Database) {
  return drizzle({ client: sqlite });
}

export type Db = ReturnType<typeof toDrizzle>;

/**
 * Runs fn inside BEGIN IMMEDIATE … COMMIT (every write transaction takes the write lock up
 * front, so two writers never deadlock on an upgrade). Nested calls join the outer one.
 * beforeCommit hooks run last inside the transaction (derived data such as the search index
 * is written atomically with the change that caused it).
 */
export function writeTransaction<T>(sqlite: Database, fn: () => T, beforeCommit: ReadonlyArray<() => void> = []): T {
  if (sqlite.inTransaction) return fn();
  sqlite.exec("BEGIN IMMEDIATE");
  try {
    const result = fn();
    if (result instanceof Promise) throw new Error("writeTransaction callbacks must be synchronous");
    for (const hook of beforeCommit) hook();
    sqlite.exec("COMMIT");
    return result;
  } catch (err) {
    if (sqlite.inTransaction) {
      sqlite.exec("ROLLBACK");
      noteRollback(sqlite);
    }
    throw err;
  }
}
