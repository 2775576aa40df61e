import type { Database } from "bun:sqlite";
import { chmodSync, existsSync } from "node:fs";
import { join } from "node:path";
import { baseline, migrations } from "./db/migrations.gen";
import type { Clock } from "./platform/clock";
import { systemClock } from "./platform/clock";
import type { Config } from "./platform/config";
import { PRIVATE_FILE, prepareDataDir, type DataDir } from "./platform/datadir";
import { migrate } from "./platform/db/migrate";
import { writeEmptyDatabase } from "./platform/db/empty-image";
import { sqliteChangeStamp, type ChangeStamp } from "./platform/db/change-stamp";
import { checkpointWal, letSqliteCheckpoint, openSqlite, toDrizzle, type Db } from "./platform/db/open";
import { createTransactions, type Transactions, type TxOptions } from "./platform/db/transactions";
import { attachDriver } from "./platform/db/driver";
import { createJobs, type Jobs } from "./platform/jobs/runner";
import { createLogger, type Logger } from "./platform/log";
import type { WalArchive } from "./platform/backup/types";
import { openWalArchive } from "./platform/backup/wal-archive";
import { createScheduler, type Scheduler } from "./platform/scheduler";
import { createRuns, type Runs } from "./platform/scheduler-runs";
import { createMaintenance, type Maintenance } from "./platform/maintenance";
import { AppError } from "./platform/errors";
import { VERSION } from "./version";

/**
 * The app core: everything a service needs, and nothing about HTTP. The server, the CLI, the
 * scheduler and tests all build one of these and call the domain services with it.
 */
export interface Core {
  config: Config;
  data: DataDir;
  sqlite: Database;
  db: Db;
  clock: Clock;
  log: Logger;
  version: string;
  /** One write transaction (BEGIN IMMEDIATE); nested calls join the outer one. `unsynced`: platform/db/transactions.ts. */
  tx<T>(fn: () => T, how?: TxOptions): T;
  /** Inside a tx() callback. */
  inTx(): boolean;
  /** Work that acts outside the database on what was written: runs once it is committed. */
  afterCommit(fn: () => void): void;
  /** Group commit's state (platform/db/transactions.ts): the HTTP layer answers once durable. */
  commits: Pick<Transactions, "pending" | "durable" | "failures" | "flush">;
  /** Work run at the end of every write transaction, before COMMIT (e.g. search indexing). */
  beforeCommit(fn: () => void): void;
  /** Where the data stands: kept answers are current while it is equal (platform/db/change-stamp.ts). */
  stamp: ChangeStamp;
  /**
   * A write that is not the change a caller asked for, all through this one path: made while
   * answering a read (session sliding, token use) or by background bookkeeping (delivery
   * outcomes, job rows). No kept answer reads what it writes, so the stamp stays; a later
   * backend whose reads run on a replica would send these to the primary here.
   */
  bookkeeping<T>(fn: () => T, how?: TxOptions): T;
  /** Background work that survives restarts (platform/jobs/runner.ts); its worker runs in the server only. Also `scheduler.jobs`. */
  jobs: Jobs;
  /**
   * All background work (platform/scheduler.ts): recurring tasks, write-behind counts, the
   * in-process runs a restore must not lose, the durable jobs; stopped in order at close.
   */
  scheduler: InstanceScheduler;
  /** Maintenance mode (platform/maintenance.ts): on while a restore replaces the data. */
  maintenance: Maintenance;
  /** In-memory state that must start again from the data after a restore replaced it. */
  onDataReplaced(fn: () => void): void;
  /** The WAL archive (platform/backup/wal-archive.ts) when this core keeps one (the server); else null. */
  wal: WalArchive | null;
  /** Functions run once at shutdown (timers, sockets). */
  onClose(fn: () => void): void;
  close(): void;
}

export type InstanceScheduler = Scheduler & { jobs: Jobs; runs: Runs };

export interface OpenCoreOptions {
  clock?: Clock;
  log?: Logger;
  /** Group the commits of one turn of the event loop (the server); off: each commits at once. */
  groupCommits?: boolean;
  /**
   * Keep the WAL archive in backups/wal (point-in-time restore): the server does; a test core
   * opts in. Without it SQLite checkpoints by itself, as it does by default.
   */
  archiveWal?: boolean;
  /**
   * The archive begins (reads where it stands, copies the log) at `core.wal.begin()` or the
   * first write, not before this returns: the server listens first (server.ts).
   */
  archiveStartsLater?: boolean;
  /**
   * Backs up a database that holds data before migrations change it (the backups domain's
   * pre-migration backup, given by openInstance); answers what it wrote. None: no backup.
   */
  backUpBeforeMigrating?: (sqlite: Database, data: DataDir, now: number) => string;
}

export function openCore(config: Config, opts: OpenCoreOptions = {}): Core {
  const clock = opts.clock ?? systemClock;
  const log = opts.log ?? createLogger();
  const data = prepareDataDir(config.dataDir);
  const fresh = !existsSync(data.dbPath);
  // The binary carries the empty database its migrations make: written whole, nothing to migrate.
  if (fresh) writeEmptyDatabase(data.dbPath);
  const sqlite = openSqlite(data.dbPath);
  // SQLite creates the file by the umask (often 0644); its -wal and -shm copy its mode.
  if (fresh) chmodSync(data.dbPath, PRIVATE_FILE);
  if (data.exposed.length) {
    log.warn("the data directory can be read by other accounts on this machine", {
      paths: data.exposed,
      fix: `chmod -R go-rwx ${data.root}`,
    });
  }
  const backUp = opts.backUpBeforeMigrating;
  // A new database is made from the baseline in one step (platform/db/migrate.ts).
  const result = migrate(sqlite, migrations, backUp ? () => backUp(sqlite, data, clock.now()) : null, clock.now(), baseline);
  // After the migrations (a full disk is SQLite's to report): an upgrade's frames are in the log
  // the archive then finds, so it begins a new generation there.
  const scheduler = createScheduler({ clock, log });
  const wal = opts.archiveWal ? openArchive(sqlite, data, clock, log, opts.archiveStartsLater ?? false, scheduler) : null;
  // No archive to protect: nobody in this process checkpoints, so SQLite's own does.
  if (!wal) letSqliteCheckpoint(sqlite);
  if (result.applied.length) log.info("migrated", { applied: result.applied, snapshot: result.snapshot });
  return assembleCore({
    config,
    data,
    sqlite,
    clock,
    log,
    groupCommits: opts.groupCommits ?? false,
    checkpointAtClose: true,
    wal,
    scheduler,
  });
}

function openArchive(sqlite: Database, data: DataDir, clock: Clock, log: Logger, startLater: boolean, scheduler: Scheduler): WalArchive {
  return openWalArchive({
    startLater,
    scheduler,
    sqlite,
    dbPath: data.dbPath,
    dir: join(data.backupsDir, "wal"),
    now: () => clock.now(),
    onNewGeneration: (generation, reason) => log.info("WAL archive: a new generation begins", { generation, reason }),
    onError: (what, err) => log.error(what, { error: err instanceof Error ? err.message : String(err) }),
  });
}

export interface CoreParts {
  config: Config;
  data: DataDir;
  sqlite: Database;
  clock: Clock;
  log: Logger;
  groupCommits: boolean;
  /**
   * Fold the WAL back into cairn.db at close (the server, so the data directory is one
   * self-contained copy). A command beside a running server leaves that to the server.
   */
  checkpointAtClose: boolean;
  /** The WAL archive, observed by every write transaction and checkpointing at close. */
  wal?: WalArchive | null;
  /** Made before the archive when there is one (its look at the log is a task); else here. */
  scheduler?: Scheduler;
}

/** The core around an opened database: transactions, hooks and a clean close. */
export function assembleCore(parts: CoreParts): Core {
  const { sqlite, log } = parts;
  const closers: Array<() => void> = [];
  const commitHooks: Array<() => void> = [];
  let closed = false;
  const stamp = sqliteChangeStamp(sqlite);
  const scheduler = (parts.scheduler ?? createScheduler(parts)) as InstanceScheduler;
  scheduler.runs = createRuns(scheduler, parts);
  const maintenance = createMaintenance();
  const db = toDrizzle(sqlite);
  const transactions = createTransactions(sqlite, {
    grouped: parts.groupCommits,
    beforeCommit: commitHooks,
    observe: parts.wal ? (moment) => parts.wal!.observe(moment) : undefined,
    onError: (what, err) => log.error(what, { error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
  });
  const core: Core = {
    config: parts.config,
    data: parts.data,
    sqlite,
    db,
    clock: parts.clock,
    log,
    version: VERSION,
    // In maintenance a write is refused before it could wait on the restore's lock (which
    // would hold the event loop for busy_timeout) or be lost under the restored rows.
    tx: (fn, how) => {
      if (!transactions.inTx() && maintenance.writesHeld()) throw maintenanceRefusal(maintenance);
      return transactions.tx(fn, how);
    },
    inTx: transactions.inTx,
    afterCommit: transactions.afterCommit,
    commits: transactions,
    beforeCommit: (fn) => commitHooks.push(fn),
    stamp,
    // Skipped in maintenance (nothing reads its answer then: the jobs worker is paused).
    bookkeeping: (fn, how) =>
      maintenance.active() && !transactions.inTx() ? (undefined as never) : stamp.bookkeeping(() => transactions.tx(fn, how)),
    maintenance,
    onDataReplaced: (fn) => maintenance.onDataReplaced(fn),
    wal: parts.wal ?? null,
    onClose: (fn) => closers.push(fn),
    close() {
      if (closed) return;
      closed = true;
      transactions.flush();
      for (const fn of closers.reverse()) fn();
      transactions.flush();
      // A statement still open somewhere makes the checkpoint fail; the WAL is then folded at next start.
      // With the archive: observe, fsync, then its TRUNCATE (busy: the next start continues the log).
      if (parts.wal || parts.checkpointAtClose) {
        try {
          if (parts.wal) parts.wal.checkpoint("truncate");
          else checkpointWal(sqlite);
        } catch (err) {
          log.warn("WAL checkpoint at shutdown failed", { error: (err as Error).message });
        }
      }
      sqlite.close();
      // After the database closed: the archive notes the file as this close left it.
      parts.wal?.close();
    },
    jobs: null as unknown as Jobs,
    scheduler,
  };
  // Stores converted to driverOf read it here (platform/db/driver.ts); the same two objects.
  attachDriver(core, { sqlite, db });
  // The worker takes no job in maintenance (a restore is replacing the rows it would claim).
  core.jobs = scheduler.jobs = createJobs(Object.assign(Object.create(core) as Core, { paused: () => maintenance.active() }));
  // The first closer, so the last to run: the background work stops in its own order
  // (timers, then work in flight, then what waits in memory is written).
  closers.push(() => scheduler.stop());
  return core;
}

/** The 503 every write meets while the data is being replaced. */
export function maintenanceRefusal(maintenance: Maintenance): AppError {
  const retry = String(maintenance.state()?.retryAfterSeconds ?? 60);
  return new AppError("maintenance", {
    headers: { "Retry-After": retry },
    extra: { retryAfter: Number(retry) },
    detail: "A restore is replacing the data; nothing was saved. Try again in a few minutes.",
  });
}
