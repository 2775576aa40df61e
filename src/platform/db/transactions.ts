/**
 * Write transactions, and group commit.
 *
 * Every write runs in `tx(fn)`: BEGIN IMMEDIATE (the write lock up front, so two writers never
 * deadlock on an upgrade), fn, the beforeCommit hooks, COMMIT. Nested calls join the outer one.
 *
 * With synchronous=FULL (docs/architecture.md, "The database file") a COMMIT waits for the disk (an
 * fsync, ~0.5 ms here): half of what a page edit costs. The server therefore groups commits: the
 * first write of a turn of the event loop opens a transaction, each write runs in a SAVEPOINT of it
 * (a failing one rolls back alone), and the group commits once, when the turn's I/O has been
 * handled (setImmediate). Nothing is acknowledged before it is durable: the HTTP layer waits for
 * `durable()` before it answers, and work that acts outside the database (sending webhooks,
 * deleting blobs) runs through `afterCommit`. The server and the test harness group; the CLI and
 * other direct users of the core commit each transaction at once (grouping off). The semantics are
 * the same, only the moment of COMMIT moves.
 *
 * An unsynced transaction (`tx(fn, { unsynced: true })`) commits with synchronous=NORMAL, no fsync
 * of its own: only for writes nobody is told about before a later synced commit, whose fsync of
 * the log makes every frame before it durable (docs/decisions.md, "Export and import"). SQLite
 * refuses to change the level inside a transaction, so a synced write that finds an unsynced
 * group open commits it first; an unsynced write joins an open synced group.
 */
import type { Database } from "bun:sqlite";
import { noteRollback, noteWriting } from "./change-stamp";

export interface TxOptions {
  /** Commit without an fsync (see above): only for writes nobody is told about before a later synced commit. */
  unsynced?: boolean;
}

export interface Transactions {
  tx<T>(fn: () => T, how?: TxOptions): T;
  /** Inside a tx() callback (not merely while a group is open). */
  inTx(): boolean;
  /**
   * Runs fn once what has been written so far is committed: at the end of the current tx() (or
   * of its group), at once when nothing is waiting. Dropped if that transaction rolls back.
   */
  afterCommit(fn: () => void): void;
  /** True while a group holds writes that are not committed yet. */
  pending(): boolean;
  /** Settles once the open group (if any) has committed or failed. */
  durable(): Promise<void>;
  /** How many groups failed to commit (their writes were all lost). */
  failures(): number;
  /** Commits the open group now (shutdown, or before work that needs no open transaction). */
  flush(): void;
}

interface Group {
  /** Committed with an fsync (FULL); false: an unsynced group (NORMAL until it ends). */
  synced: boolean;
  after: Array<() => void>;
  settled: Promise<void>;
  settle: () => void;
}

export interface TransactionOptions {
  grouped: boolean;
  beforeCommit: ReadonlyArray<() => void>;
  onError: (what: string, err: unknown) => void;
  /**
   * The WAL archive's observer (platform/backup/wal-archive.ts): "locked" right after BEGIN
   * IMMEDIATE (frames another process wrote are copied before our write could restart the log),
   * "released" right after every COMMIT or ROLLBACK that ends the write lock.
   */
  observe?: (moment: "locked" | "released") => void;
}

export function createTransactions(sqlite: Database, opts: TransactionOptions): Transactions {
  let depth = 0;
  let group: Group | null = null;
  let failed = 0;
  // afterCommit work registered by the tx() in progress; joins its group (or runs) if it succeeds.
  let memberAfter: Array<() => void> = [];

  const runAll = (fns: Array<() => void>) => {
    for (const fn of fns) {
      try {
        fn();
      } catch (err) {
        opts.onError("after-commit work failed", err);
      }
    }
  };

  const observe = opts.observe ?? (() => {});
  // Prepared once: exec() compiles its text again at every call, and these run several times a write.
  const control = (text: string) => {
    const stmt = sqlite.prepare(text);
    return () => void stmt.run();
  };
  const begin = control("BEGIN IMMEDIATE");
  const commit = control("COMMIT");
  const savepoint = control("SAVEPOINT member");
  const release = control("RELEASE member");
  const rollbackMember = control("ROLLBACK TO member");
  // Outside a transaction only (SQLite refuses the change inside one). Compiled at each call:
  // SQLite applies this pragma when it compiles it, so a kept statement would do nothing when run.
  const syncNormal = () => sqlite.exec("PRAGMA synchronous = NORMAL");
  const syncFull = () => sqlite.exec("PRAGMA synchronous = FULL");

  const rollback = () => {
    if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
    noteRollback(sqlite);
    observe("released");
  };

  /** BEGIN at the transaction's level: an unsynced one is NORMAL until it ends, FULL again if BEGIN fails. */
  function beginAt(synced: boolean): void {
    if (!synced) syncNormal();
    try {
      begin();
    } catch (err) {
      if (!synced) syncFull();
      throw err;
    }
  }

  function openGroup(synced: boolean): Group {
    beginAt(synced);
    observe("locked");
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const g: Group = { synced, after: [], settled, settle };
    setImmediate(commitGroup);
    return g;
  }

  /** Back to FULL once an unsynced group's transaction has ended (committed or rolled back). */
  const ended = (g: Group) => {
    if (!g.synced && !sqlite.inTransaction) syncFull();
  };

  function commitGroup(): void {
    const g = group;
    if (!g) return;
    group = null;
    try {
      commit();
      ended(g);
      observe("released");
    } catch (err) {
      // 1. the disk refused (full, I/O error): every member's writes are lost together;
      // 2. count it, so every request that waited on this group answers an error;
      // 3. drop the after-commit work, which would act on rows that do not exist.
      rollback();
      ended(g);
      failed++;
      opts.onError("group commit failed", err);
      g.settle();
      return;
    }
    g.settle();
    runAll(g.after);
  }

  /** fn, the beforeCommit hooks, then `end`: COMMIT, or the RELEASE of a member's savepoint. */
  function run<T>(fn: () => T, end: () => void): T {
    const result = fn();
    if (result instanceof Promise) throw new Error("tx() callbacks must be synchronous");
    for (const hook of opts.beforeCommit) hook();
    end();
    return result;
  }

  function immediate<T>(fn: () => T, synced: boolean): T {
    beginAt(synced);
    observe("locked");
    depth++;
    try {
      const result = run(fn, commit);
      if (!synced) syncFull();
      observe("released");
      return result;
    } catch (err) {
      memberAfter = [];
      rollback();
      if (!synced && !sqlite.inTransaction) syncFull();
      throw err;
    } finally {
      depth--;
      const after = memberAfter;
      memberAfter = [];
      runAll(after);
    }
  }

  function member<T>(fn: () => T, synced: boolean): T {
    // A synced write never shares an unsynced group: that one commits now, without waiting for the turn's end.
    // (A loop: the committed group's after-commit work may open another.)
    while (synced && group && !group.synced) commitGroup();
    group ??= openGroup(synced);
    savepoint();
    depth++;
    try {
      const result = run(fn, release);
      group.after.push(...memberAfter);
      return result;
    } catch (err) {
      if (sqlite.inTransaction) {
        // Only this member's writes are undone; the rest of the group stands.
        rollbackMember();
        release();
        noteRollback(sqlite);
      } else {
        // SQLite itself rolled the whole transaction back (disk full, I/O error).
        const g = group;
        group = null;
        failed++;
        noteRollback(sqlite);
        if (g) ended(g);
        observe("released");
        g?.settle();
      }
      throw err;
    } finally {
      depth--;
      memberAfter = [];
    }
  }

  return {
    tx(fn, how) {
      if (depth > 0) return fn();
      // The change stamp is read afresh while this runs and once after (change-stamp.ts).
      noteWriting(sqlite, true);
      const synced = !how?.unsynced;
      try {
        return opts.grouped ? member(fn, synced) : immediate(fn, synced);
      } finally {
        noteWriting(sqlite, false);
      }
    },
    inTx: () => depth > 0,
    afterCommit(fn) {
      if (depth > 0) memberAfter.push(fn);
      else if (group) group.after.push(fn);
      else fn();
    },
    pending: () => group !== null,
    durable: () => group?.settled ?? Promise.resolve(),
    failures: () => failed,
    flush() {
      if (depth > 0) throw new Error("flush() inside a transaction");
      commitGroup();
    },
  };
}
