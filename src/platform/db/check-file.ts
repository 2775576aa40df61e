/**
 * SQLite's own checks of a database file (a restored copy, before it may replace the live
 * data). Each is one statement that reads the whole file: on a large database run them off the
 * server's thread (backups/restore-test.ts runs them in a child process).
 */
import type { Database } from "bun:sqlite";

/** PRAGMA integrity_check: [] when sound, else SQLite's first problems (at most `max`). */
export function integrityProblems(db: Database, max = 20): string[] {
  const rows = db.query<{ integrity_check: string }, []>(`PRAGMA integrity_check(${Math.max(1, Math.floor(max))})`).all();
  return rows.length === 1 && rows[0].integrity_check === "ok" ? [] : rows.map((r) => r.integrity_check);
}

/** PRAGMA foreign_key_check: the dangling references (at most `max`), as "table → parent (rowid n)". */
export function danglingReferences(db: Database, max = 20): { count: number; first: string[] } {
  const rows = db.query<{ table: string; rowid: number | null; parent: string }, []>("PRAGMA foreign_key_check").all();
  return { count: rows.length, first: rows.slice(0, max).map((r) => `${r.table} → ${r.parent} (rowid ${r.rowid ?? "?"})`) };
}
