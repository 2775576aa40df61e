/**
 * Where the data stands, as one comparable value: answers worked out from the database and
 * kept are current exactly while it is equal (kept-answers.ts). The interface is the seam a
 * second backend would implement (PostgreSQL: a counter bumped by the commits that matter).
 */
import type { Database } from "bun:sqlite";
import { perInstance } from "../memo";
import { COUNTS_SQL, createCountsTable, tablesStamp, watchDeclaredTables } from "./table-stamps";

export interface ChangeStamp {
  /** Equal stamps: the data kept answers read has not changed in between. */
  current(): string;
  /**
   * Runs writes that no kept answer reads (session sliding, token use, delivery outcomes, job
   * bookkeeping), so they leave the stamp where it is. Reads far outnumber writes in a wiki, but
   * these come with the reads: counted as changes, they emptied every cache every few seconds.
   */
  bookkeeping<T>(fn: () => T): T;
  /**
   * A stamp that moves only when these tables change (declared with declareWatchedTable),
   * another process commits or a write is rolled back: for the small answers every request
   * asks (settings, address blocks, token look-ups), which page edits leave as they are.
   */
  ofTables(tables: readonly string[]): string;
}

interface StampState {
  /** Both halves of the stamp in one statement (a request asks several caches). */
  both: ReturnType<Database["query"]>;
  /** total_changes() alone, for bookkeeping's count inside its transaction. */
  changes: ReturnType<Database["query"]>;
  /** The per-table counts read with the stamp (table-stamps.ts). */
  counts: string | null;
  /** The stamp last read, and whether it still holds (see current()). */
  text: string;
  fresh: boolean;
  /** Rolled-back transactions (the transactions module notes them). */
  rollbacks: number;
  /** Rows changed by bookkeeping, left out of total_changes(). */
  excluded: number;
  /** Nesting of bookkeeping() calls: only the outermost counts its rows. */
  depth: number;
  /** Write transactions of ours under way (noteWriting). */
  writing: number;
}

const STAMP_SQL = "SELECT total_changes() AS t, (SELECT data_version FROM pragma_data_version()) AS v";

/** The stamp's statement, with the per-table counts (table-stamps.ts) when the connection has their table. */
function stampStatement(db: Database): ReturnType<Database["query"]> {
  if (!db.inTransaction) createCountsTable(db);
  try {
    return db.query(`${STAMP_SQL}, ${COUNTS_SQL} AS c`);
  } catch {
    return db.query(STAMP_SQL);
  }
}

const state = perInstance(
  (db: Database): StampState => ({
    both: stampStatement(db),
    changes: db.query("SELECT total_changes() AS t"),
    counts: null,
    text: "",
    fresh: false,
    rollbacks: 0,
    excluded: 0,
    depth: 0,
    writing: 0,
  }),
);

const totalChanges = (s: StampState) => (s.changes.get() as { t: number }).t;

/** A rollback undoes rows without moving total_changes(): it must move the stamp itself. */
export function noteRollback(db: Database): void {
  const s = state(db);
  s.rollbacks++;
  s.fresh = false;
}

/**
 * A write transaction of ours begins (true) or ends (false), as the transactions module says:
 * while it runs the stamp is read afresh every time, and the stamp read before it or during it
 * no longer holds after it. Every write of ours runs in one (transactions.ts), bookkeeping's too.
 */
export function noteWriting(db: Database, begins: boolean): void {
  const s = state(db);
  s.writing += begins ? 1 : -1;
  s.fresh = false;
}

/**
 * SQLite's stamp for one connection: total_changes() (every row inserted, updated or deleted
 * through this connection, by any code path, triggers included) less bookkeeping's rows, PRAGMA
 * data_version (commits by other connections) and the rollbacks. Inside a transaction too: its
 * own writes move total_changes; undoing them, the count.
 *
 * Read once per synchronous run of our code, not once per cache asked (a request asks three to
 * six: trusted proxies, address blocks, the token, the page and its access…): nothing of ours
 * writes outside a write transaction, whose start and end drop the value read (noteWriting),
 * and a commit by another process is seen at the next run, microseconds later, as the
 * data_version half always was. Inside a transaction every call reads afresh, so it sees its
 * own writes.
 */
export function writeStamp(db: Database): string {
  const s = state(db);
  if (s.fresh) return s.text;
  const row = s.both.get() as { t: number; v: number; c?: string | null };
  s.text = `${row.t - s.excluded}:${row.v}:${s.rollbacks}`;
  s.counts = row.c ?? null;
  if (s.writing === 0) {
    s.fresh = true;
    queueMicrotask(() => (s.fresh = false));
  }
  return s.text;
}

function bookkeeping<T>(db: Database, fn: () => T): T {
  const s = state(db);
  if (s.depth > 0) return fn();
  const before = totalChanges(s);
  s.depth++;
  try {
    return fn();
  } finally {
    s.depth--;
    s.excluded += totalChanges(s) - before;
    s.fresh = false;
  }
}

/** The ChangeStamp of one SQLite connection. */
export const sqliteChangeStamp = perInstance(
  (db: Database): ChangeStamp => ({
    current: () => writeStamp(db),
    bookkeeping: (fn) => bookkeeping(db, fn),
    ofTables: (tables) => {
      // Counting starts at the first ask (the tables exist by then); the stamp is read after it.
      if (watchDeclaredTables(db)) state(db).fresh = false;
      const general = writeStamp(db);
      return tablesStamp(db, tables, general, state(db).counts) ?? general;
    },
  }),
);
