/**
 * Where the data stands, as one comparable value: answers worked out from the database and
 * kept are current exactly while it is equal (kept-answers.ts). The interface is the seam a
 * second backend would implement (PostgreSQL: a counter bumped by the commits that matter).
 */
import type { Database } from "bun:sqlite";
import { perInstance } from "../memo";
import { existsSync } from "node:fs";
import { inWalMode } from "./open";
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
  /** Whether anyone committed since the stamp was read (the commit watch below); null: read it each run. */
  commits: CommitWatch | null;
  /** data_version read during this synchronous run (fresh until the next microtask). */
  versionValue: number;
  versionFresh: boolean;
  /** The per-table counts (table-stamps.ts) and the stamp they were read at. */
  countsAt: string;
  countsText: string | null;
  /** The stamp last read, and whether it still holds (see writeStamp). */
  text: string;
  fresh: boolean;
  /** Fresh until the WAL index moves (no transaction was open when it was read), not for one run only. */
  lasting: boolean;
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
    commits: watchCommits(db),
    versionValue: 0,
    versionFresh: false,
    countsAt: "",
    countsText: null,
    text: "",
    fresh: false,
    lasting: false,
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
 * Read again only when it may have moved, not once per cache asked (a request asks three to
 * six: trusted proxies, address blocks, the token, the page and its access…). Inside a write
 * transaction of ours it is read on every call, so it sees its own writes; its start and end
 * drop the value read (noteWriting), as do a rollback and bookkeeping. Any commit, ours or
 * another connection's (a `cairn` command beside the server), shows in the WAL index, which is
 * looked at on every call (the commit watch below, a few nanoseconds): the stamp is read again
 * then, and only then, so a request that reads only kept answers runs no statement at all.
 * Where there is no index to watch (not WAL, in memory), and while a transaction that is not
 * one of ours is open, the stamp is read once per synchronous run, data_version included: a
 * commit by another process, or a write outside tx(), is then seen at the next run.
 */
export function writeStamp(db: Database): string {
  const s = state(db);
  if (s.commits) {
    if (s.commits.moved()) {
      s.versionValue = (s.version.get() as { data_version: number }).data_version;
      s.fresh = false;
    }
  } else if (!s.fresh && !s.versionFresh) {
    s.versionValue = (s.version.get() as { data_version: number }).data_version;
    s.versionFresh = true;
    queueMicrotask(() => (s.versionFresh = false));
  }
  if (s.fresh && !(s.lasting && db.inTransaction)) return s.text;
  s.text = `${totalChanges(s) - s.excluded}:${s.versionValue}:${s.rollbacks}`;
  if (s.writing === 0) {
    s.fresh = true;
    // Kept until the WAL index shows a commit, except while a transaction is open that is not
    // one of ours under way (a group of commits between its members, or writes outside tx(),
    // which the rules forbid): its writes show there only at COMMIT, so the stamp is then kept
    // for this run only, as where there is no index to watch.
    s.lasting = s.commits !== null && !db.inTransaction;
    if (!s.lasting) queueMicrotask(() => (s.fresh = false));
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

/*
 * The commit watch: has anyone, this connection included, committed since we last looked?
 * PRAGMA data_version answers for other connections only and costs about 5 µs (a read
 * transaction, which takes and drops file locks); it was read on every request.
 *
 * In WAL mode every connection, in any process, publishes each commit in the header of the WAL
 * index, the first bytes of the `-shm` file that SQLite maps into every connection's memory
 * (its layout is part of SQLite's documented file format: a 48-byte header, written twice,
 * whose change counter goes up with every commit, beside the last frame, the salts and a
 * checksum). Mapping the same bytes and comparing them with what we saw last answers in
 * nanoseconds. It only says that something may have changed: the stamp is then read again,
 * data_version included, so our own commits still do not count as another connection's.
 *
 * The order makes it safe: the header is copied before data_version is read, so a commit after
 * the copy moves the header again and is seen at the next look, and one before it is in the
 * data_version read after. A torn read (a writer halfway through the header) differs from the
 * copy and costs one reading too many, never one too few.
 *
 * The mapping never outlives the file's first page: SQLite shrinks the file only when a first
 * connection opens it, which cannot happen while ours is open, and even then to 3 bytes of
 * that same page (a mapped page partly inside the file reads as zeros beyond it, no fault).
 */

/** The header's words from the change counter to the checksum (the first two: version, unused). */
const FIRST_WORD = 2;
const WORDS = 12;

export interface CommitWatch {
  /** True when the header moved since the last call (or on the first); the header seen is kept. */
  moved(): boolean;
}

/** A watch on this connection's WAL index; null where there is none (not opened in WAL mode, in memory). */
export function watchCommits(db: Database): CommitWatch | null {
  const path = db.filename;
  if (!inWalMode(db) || !path || !existsSync(`${path}-shm`)) return null;
  let header: Uint32Array;
  try {
    const bytes = Bun.mmap(`${path}-shm`, { shared: true, size: WORDS * 4 });
    if (bytes.byteLength < WORDS * 4) return null;
    header = new Uint32Array(bytes.buffer, bytes.byteOffset, WORDS);
  } catch {
    return null;
  }
  const seen = new Uint32Array(WORDS);
  let first = true;
  return {
    moved() {
      let moved = first;
      first = false;
      for (let i = FIRST_WORD; i < WORDS; i++) {
        const word = header[i];
        if (word !== seen[i]) {
          seen[i] = word;
          moved = true;
        }
      }
      return moved;
    },
  };
}
