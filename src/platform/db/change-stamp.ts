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
   * Like current(), but moved only by writes to these tables (and, as current(), by any
   * rollback and any other connection's commit). For answers read from tables a page write
   * never touches (settings, address blocks, tokens): every write emptied them before.
   */
  of(tables: readonly string[]): string;
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
  /** Rows written per table through this connection (bookkeeping's left out), once of() was first asked. */
  tableWrites: Map<string, number> | null;
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
    tableWrites: null,
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

/**
 * The stamp of some tables: the rows written to them (SQLite's update hook, which reports each
 * row changed through this connection, triggers' and foreign-key cascades' too), data_version
 * and the rollbacks. The hook does not report a table's rows emptied by a DELETE without WHERE
 * (no such statement here outside a restore, which writes through a second connection and so
 * moves data_version) nor WITHOUT ROWID tables (none in the schema): the tables' writers keep
 * it that way. Installed at the first call: no answer kept by tables existed before it.
 */
function tablesStamp(db: Database, tables: readonly string[]): string {
  const s = state(db);
  let writes = s.tableWrites;
  if (writes === null) {
    const counts = new Map<string, number>();
    s.tableWrites = writes = counts;
    const note = (_db: Database, table: string) => {
      if (s.depth === 0) counts.set(table, (counts.get(table) ?? 0) + 1);
    };
    db.onInsert = note;
    db.onUpdate = note;
    db.onDelete = note;
  }
  let sum = 0;
  for (const table of tables) sum += writes.get(table) ?? 0;
  return `${sum}:${dataVersion(s)}:${s.rollbacks}`;
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
    of: (tables) => tablesStamp(db, tables),
    bookkeeping: (fn) => bookkeeping(db, fn),
  }),
);
