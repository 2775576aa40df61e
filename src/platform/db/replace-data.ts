/**
 * Replaces every row of a live database with the rows of another SQLite file of the same
 * schema (a restored backup), through SQLite itself: ONE write transaction on a second
 * connection that ATTACHes the copy, empties each table and fills it again from the copy.
 *
 * Why not a file swap (rename the copy over cairn.db): the server's connection, its prepared
 * statements and its WAL would keep pointing at the old file's inode, and a crash between the
 * renames of the database, -wal and -shm files can leave a mix. Inside one transaction SQLite's
 * atomic commit is the guarantee: `kill -9` at any moment leaves the old rows or the new ones.
 *
 * - triggers are dropped first and created again at the end (the copy's rows already carry
 *   what they would have written: search marks, audit immutability would refuse the delete);
 * - foreign keys are off on this connection (a delete would cascade into rows already put back);
 *   the copy was checked with PRAGMA foreign_key_check before (restore's checks);
 * - FTS5 indexes are emptied ('delete-all') rather than copied: Bun opens SQLite in defensive
 *   mode, where their shadow tables may not be written. The caller's `alsoRun` statements (in
 *   the same transaction) mark what must be indexed again, so even a crash right after the
 *   COMMIT leaves an index that catches up. Other virtual tables are refused. sqlite_sequence
 *   is copied last (inserting rows moved it);
 * - rows go in chunks with an `await` between them, so the event loop (and every read on the
 *   main connection, which sees the old data until COMMIT) keeps answering;
 * - a marker row is written in `marker.table` (which the copy does not replace) in the same
 *   transaction: after a crash, its presence says the swap committed.
 */
import type { Database } from "bun:sqlite";
import { open } from "node:fs/promises";
import { openSqlite } from "./open";

export interface ReplaceOptions {
  /** The SQLite file whose rows become the live ones (same schema, migrated first). */
  source: string;
  /** A table the swap leaves alone and writes `id` into, in the same transaction. */
  marker: { table: string; id: string; at: string };
  /** Tables left as they are (beside the marker table). */
  keep?: string[];
  /** Statements run after the rows are in, before COMMIT (e.g. mark every page for the search index). */
  alsoRun?: string[];
  /** Milliseconds one statement should take at most (default 20): the rows per statement adapt to it. */
  sliceMs?: number;
  onProgress?: (done: number, total: number) => void;
  /** Answers between chunks (default setImmediate): reads and timers run there. */
  pause?: () => Promise<void>;
}

export interface ReplaceResult {
  tables: number;
  rows: number;
  ms: number;
}

interface TableInfo {
  name: string;
  type: string;
  columns: string[];
  withoutRowid: boolean;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The ordinary and shadow tables of a schema, with their columns. */
function tablesOf(db: Database, schema: string): Map<string, TableInfo> {
  const out = new Map<string, TableInfo>();
  for (const t of db.query<{ name: string; type: string; wr: number }, []>(`PRAGMA ${schema}.table_list`).all()) {
    if (!["table", "shadow", "virtual"].includes(t.type) || t.name.startsWith("sqlite_schema") || t.name === "sqlite_temp_schema") continue;
    const columns =
      t.type === "virtual"
        ? []
        : db
            .query<{ name: string }, []>(`PRAGMA ${schema}.table_info(${quote(t.name)})`)
            .all()
            .map((c) => c.name);
    out.set(t.name, { name: t.name, type: t.type, columns, withoutRowid: t.wr === 1 });
  }
  return out;
}

/** Whether a marker row with this id was committed (start-up recovery after a crash). */
export function markerCommitted({ sqlite }: { sqlite: Database }, table: string, id: string): boolean {
  const exists =
    sqlite.query<{ n: number }, [string]>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)?.n === 1;
  if (!exists) return false;
  return sqlite.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM ${quote(table)} WHERE id = ?`).get(id)?.n === 1;
}

export async function replaceData(dbPath: string, opts: ReplaceOptions): Promise<ReplaceResult> {
  const started = performance.now();
  // Each table starts small again: bytes per row differ by a thousand times between tables.
  const slice = () => new Slicer(opts.sliceMs ?? 20);
  const pause = opts.pause ?? nextTurn;
  const db = openSqlite(dbPath);
  // Cairn owns checkpointing (the WAL archive); this connection never folds the log itself.
  db.exec("PRAGMA wal_autocheckpoint = 0");
  db.exec("PRAGMA foreign_keys = OFF");
  db.query("ATTACH DATABASE ? AS restored").run(opts.source);
  let rows = 0;
  let tablesDone = 0;
  try {
    const live = tablesOf(db, "main");
    const copy = tablesOf(db, "restored");
    const skip = new Set([opts.marker.table, "sqlite_sequence", ...(opts.keep ?? [])]);
    const tables = [...live.values()].filter((t) => t.type === "table" && !skip.has(t.name));
    const virtual = [...live.values()].filter((t) => t.type === "virtual").map((t) => t.name);
    const modules = db
      .query<{ name: string; sql: string }, []>(
        "SELECT name, sql FROM main.sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'",
      )
      .all();
    const notFts = modules.filter((m) => virtual.includes(m.name) && !/\bUSING\s+fts5\b/i.test(m.sql));
    if (notFts.length) throw new Error(`cannot replace the rows of virtual table ${notFts[0].name}`);
    const triggers = db.query<{ name: string; sql: string }, []>("SELECT name, sql FROM main.sqlite_master WHERE type = 'trigger'").all();
    const total = tables.length + 1;
    db.exec("BEGIN IMMEDIATE");
    db.exec(`CREATE TABLE IF NOT EXISTS ${quote(opts.marker.table)} (id TEXT PRIMARY KEY, swapped_at TEXT NOT NULL)`);
    for (const t of triggers) db.exec(`DROP TRIGGER main.${quote(t.name)}`);
    for (const t of tables) await emptyTable(db, t, slice(), pause);
    for (const name of virtual) db.exec(`INSERT INTO main.${quote(name)} (${quote(name)}) VALUES ('delete-all')`);
    let done = 0;
    for (const t of tables) {
      const from = copy.get(t.name);
      if (from) rows += await copyTable(db, t, from, slice(), pause);
      tablesDone++;
      opts.onProgress?.(++done, total);
    }
    // Inserting rows moved the AUTOINCREMENT counters: the copy's own are put back last.
    if (live.has("sqlite_sequence")) {
      db.exec("DELETE FROM main.sqlite_sequence");
      if (copy.has("sqlite_sequence"))
        db.exec("INSERT INTO main.sqlite_sequence (name, seq) SELECT name, seq FROM restored.sqlite_sequence");
    }
    for (const statement of opts.alsoRun ?? []) db.exec(statement);
    for (const t of triggers) db.exec(t.sql);
    db.query(`INSERT INTO ${quote(opts.marker.table)} (id, swapped_at) VALUES (?, ?)`).run(opts.marker.id, opts.marker.at);
    // The frames written so far reach the disk off the event loop (the thread pool), so the
    // COMMIT's own fsync, which runs on it, finds little left to write.
    await syncFile(`${dbPath}-wal`);
    db.exec("COMMIT");
    opts.onProgress?.(total, total);
  } catch (err) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw err;
  } finally {
    db.exec("DETACH DATABASE restored");
    db.close();
  }
  return { tables: tablesDone, rows, ms: Math.round(performance.now() - started) };
}

/**
 * Rows per statement, adapted so that one statement takes about `ms`: a table of 40 KB page
 * versions and one of two-column links differ by a thousand times in bytes per row.
 */
class Slicer {
  rows = 64;
  constructor(private readonly ms: number) {}
  /** Runs fn(rows) and adapts the next size to how long it took. */
  run<T>(fn: (rows: number) => T): T {
    const started = performance.now();
    const result = fn(this.rows);
    const took = Math.max(0.1, performance.now() - started);
    this.rows = Math.max(1, Math.min(50_000, Math.round(this.rows * Math.min(4, this.ms / took))));
    return result;
  }
}

async function syncFile(path: string): Promise<void> {
  const fh = await open(path, "r+").catch(() => null);
  if (!fh) return;
  try {
    await fh.datasync();
  } finally {
    await fh.close();
  }
}

/** Deletes a table's rows a slice at a time (WITHOUT ROWID tables, small here, at once). */
async function emptyTable(db: Database, t: TableInfo, slice: Slicer, pause: () => Promise<void>): Promise<void> {
  const name = quote(t.name);
  if (t.withoutRowid) return void db.exec(`DELETE FROM main.${name}`);
  const remove = db.query<never, [number]>(
    `DELETE FROM main.${name} WHERE rowid IN (SELECT rowid FROM main.${name} ORDER BY rowid LIMIT ?)`,
  );
  while (slice.run((rows) => remove.run(rows).changes) > 0) await pause();
}

/** One table's rows, in rowid ranges sized by the slicer (WITHOUT ROWID tables, small FTS5 ones here, at once). */
async function copyTable(db: Database, live: TableInfo, from: TableInfo, slice: Slicer, pause: () => Promise<void>): Promise<number> {
  const columns = live.columns
    .filter((c) => from.columns.includes(c))
    .map(quote)
    .join(", ");
  const name = quote(live.name);
  if (live.withoutRowid) {
    return db.query(`INSERT INTO main.${name} (${columns}) SELECT ${columns} FROM restored.${name}`).run().changes;
  }
  // The rowid is copied too: an FTS5 index or a page's doc id names rows by it.
  const insert = db.query(
    `INSERT INTO main.${name} (rowid, ${columns}) SELECT rowid, ${columns} FROM restored.${name} WHERE rowid > ?1 AND rowid <= ?2`,
  );
  const chunkEnd = db.query<{ r: number }, [number, number]>(
    `SELECT rowid AS r FROM restored.${name} WHERE rowid > ?1 ORDER BY rowid LIMIT 1 OFFSET ?2`,
  );
  const last = db.query<{ r: number | null }, []>(`SELECT max(rowid) AS r FROM restored.${name}`).get()?.r ?? null;
  if (last === null) return 0;
  let after = Number.MIN_SAFE_INTEGER;
  let rows = 0;
  for (;;) {
    const end = slice.run((n) => {
      const to = chunkEnd.get(after, n - 1)?.r ?? last;
      rows += insert.run(after, to).changes;
      return to;
    });
    if (end >= last) return rows;
    after = end;
    await pause();
  }
}
