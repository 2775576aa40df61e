/**
 * Where the data stands, as one comparable value: answers worked out from the database and
 * kept are current exactly while it is equal (kept-answers.ts). The interface is the seam a
 * second backend would implement (PostgreSQL: a counter bumped by the commits that matter).
 */
import type { Database } from "bun:sqlite";
import { perInstance } from "../memo";

export interface ChangeStamp {
  /** Equal stamps: the data kept answers read has not changed in between. */
  current(): string;
  /**
   * Runs writes that no kept answer reads (session sliding, token use, delivery outcomes, job
   * bookkeeping), so they leave the stamp where it is. Reads far outnumber writes in a wiki, but
   * these come with the reads: counted as changes, they emptied every cache every few seconds.
   */
  bookkeeping<T>(fn: () => T): T;
}

interface StampState {
  changes: ReturnType<Database["query"]>;
  version: ReturnType<Database["query"]>;
  /** data_version read during this synchronous run (fresh until the next microtask). */
  versionValue: number;
  versionFresh: boolean;
  /** Rolled-back transactions (the transactions module notes them). */
  rollbacks: number;
  /** Rows changed by bookkeeping, left out of total_changes(). */
  excluded: number;
  /** Nesting of bookkeeping() calls: only the outermost counts its rows. */
  depth: number;
}

const state = perInstance(
  (db: Database): StampState => ({
    changes: db.query("SELECT total_changes() AS t"),
    version: db.query("PRAGMA data_version"),
    versionValue: 0,
    versionFresh: false,
    rollbacks: 0,
    excluded: 0,
    depth: 0,
  }),
);

const totalChanges = (s: StampState) => (s.changes.get() as { t: number }).t;

/**
 * PRAGMA data_version, read at most once per synchronous run (it costs 2 µs, and one request
 * asks several caches): a commit by another process lands between two statements, and within
 * one run of our code it is seen at the next run, microseconds later, as a changed stamp.
 */
function dataVersion(s: StampState): number {
  if (!s.versionFresh) {
    s.versionValue = (s.version.get() as { data_version: number }).data_version;
    s.versionFresh = true;
    queueMicrotask(() => (s.versionFresh = false));
  }
  return s.versionValue;
}

/** A rollback undoes rows without moving total_changes(): it must move the stamp itself. */
export function noteRollback(db: Database): void {
  state(db).rollbacks++;
}

/**
 * SQLite's stamp for one connection: total_changes() (every row inserted, updated or deleted
 * through this connection, by any code path, triggers included) less bookkeeping's rows, PRAGMA
 * data_version (commits by other connections) and the rollbacks. Inside a transaction too: its
 * own writes move total_changes; undoing them, the count.
 */
export function writeStamp(db: Database): string {
  const s = state(db);
  return `${totalChanges(s) - s.excluded}:${dataVersion(s)}:${s.rollbacks}`;
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
  }
}

/** The ChangeStamp of one SQLite connection. */
export const sqliteChangeStamp = perInstance(
  (db: Database): ChangeStamp => ({
    current: () => writeStamp(db),
    bookkeeping: (fn) => bookkeeping(db, fn),
  }),
);
