/**
 * Where the data stands, as one comparable value: answers worked out from the database and
 * kept are current exactly while it is equal (kept-answers.ts). The interface is the seam a
 * second backend would implement (PostgreSQL: a counter bumped by the commits that matter).
 */
import type { Database } from "bun:sqlite";
import { perInstance } from "../memo";
import { COUNTS_SQL, createCountsTable, tablesStamp, tablesUnwatched, watchDeclaredTables } from "./table-stamps";

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
  changes: ReturnType<Database["query"]>;
  version: ReturnType<Database["query"]>;
  counts: ReturnType<Database["query"]> | null;
  /** data_version read during this synchronous run (fresh until the next microtask). */
  versionValue: number;
  versionFresh: boolean;
  /** The per-table counts (table-stamps.ts) and the stamp they were read at. */
  countsAt: string;
  countsText: string | null;
  /** The stamp last read, and whether it still holds (see writeStamp). */
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
  /** A table stamp was asked inside a transaction before the triggers were made: make them after it. */
  watchAfter: boolean;
}

const state = perInstance(
  (db: Database): StampState => ({
    changes: db.query("SELECT total_changes() AS t"),
    version: db.query("PRAGMA data_version"),
    counts: countsStatement(db),
    versionValue: 0,
    versionFresh: false,
    countsAt: "",
    countsText: null,
    text: "",
    fresh: false,
    rollbacks: 0,
    excluded: 0,
    depth: 0,
    writing: 0,
    watchAfter: false,
  }),
);

/** The per-table counts (table-stamps.ts), when the connection has their table. */
function countsStatement(db: Database): ReturnType<Database["query"]> | null {
  if (!db.inTransaction) createCountsTable(db);
  try {
    return db.query(COUNTS_SQL);
  } catch {
    return null;
  }
}

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
  // A user of the core whose every ask runs inside a transaction (seeding or importing through
  // the services, transaction after transaction) would otherwise never get the triggers, and its
  // answers kept by table would follow every write: space access worked out again for each page.
  if (!begins && s.watchAfter && s.writing === 0 && !db.inTransaction) {
    s.watchAfter = false;
    watchDeclaredTables(db);
  }
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
 * data_version half always was. Inside a transaction total_changes() is read on every call,
 * so it sees its own writes.
 */
export function writeStamp(db: Database): string {
  const s = state(db);
  if (s.fresh) return s.text;
  // total_changes() reads no database (a fraction of a microsecond); data_version does, and
  // is read at most once per synchronous run, inside a transaction too.
  if (!s.versionFresh) {
    s.versionValue = (s.version.get() as { data_version: number }).data_version;
    s.versionFresh = true;
    queueMicrotask(() => (s.versionFresh = false));
  }
  s.text = `${totalChanges(s) - s.excluded}:${s.versionValue}:${s.rollbacks}`;
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
      else if (db.inTransaction && tablesUnwatched(db)) state(db).watchAfter = true;
      const general = writeStamp(db);
      const s = state(db);
      // The counts move only with a change, which moves the general stamp: read again only then.
      if (s.countsAt !== general) {
        s.countsText = ((s.counts?.get() as { c: string | null } | null) ?? { c: null }).c;
        s.countsAt = general;
      }
      return tablesStamp(db, tables, general, s.countsText) ?? general;
    },
  }),
);
