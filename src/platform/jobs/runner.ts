/**
 * One jobs module for background work (docs/decisions.md, "One jobs module"): durable rows, retries
 * with backoff across restarts, single flight per key, named schedules, progress an endpoint can
 * read, and a clean stop. Framework-free: it needs only what JobHost names, which the Core
 * provides.
 *
 * - enqueue() writes the row in the caller's transaction when there is one, so a job commits
 *   with the change that asked for it and never exists without it;
 * - the worker only runs where start() was called (the server), never in a CLI command or a
 *   test that did not ask: a command beside a running server must not take its work;
 * - a handler that throws is tried again after backoff(attempt) until maxAttempts, then the row
 *   stays "failed" with the error; a job left "running" by a crash is queued again at start;
 * - the rows' own writes are bookkeeping (they leave kept answers alone, core.bookkeeping).
 */
import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import type { Clock } from "../clock";
import { iso } from "../clock";
import { newId } from "../crypto";
import type { Db } from "../db/open";
import type { Logger } from "../log";
import { nextCronRun, STOP, type Scheduler, type Task } from "../scheduler";
import { jobs, type JobRow } from "./tables";

export interface JobHost {
  db: Db;
  clock: Clock;
  log: Logger;
  tx<T>(fn: () => T): T;
  bookkeeping<T>(fn: () => T): T;
  afterCommit(fn: () => void): void;
  inTx(): boolean;
  /** The instance's scheduler: the worker's poll is one of its tasks, the schedules are listed there. */
  scheduler: Scheduler;
  /** True while no job may start (maintenance: a restore is replacing the data). */
  paused?(): boolean;
}

export interface JobContext<P> {
  id: string;
  payload: P;
  attempt: number;
  /** Progress readable while the job runs (written at most every PROGRESS_EVERY_MS). */
  report(done: number, total: number): void;
  /** Aborted at shutdown: a long job stops at its next check and runs again after the restart. */
  signal: AbortSignal;
}

export interface JobKind<P> {
  run(ctx: JobContext<P>): void | Promise<void>;
  /** Tries in all, the first included (default 5). */
  maxAttempts?: number;
  /** Wait before try n+1 after try n failed (default 30 s × 2^(n-1), at most an hour). */
  backoffMs?(attempt: number): number;
}

export interface JobState {
  id: string;
  kind: string;
  state: "queued" | "running" | "succeeded" | "failed";
  attempts: number;
  progress: { done: number; total: number } | null;
  error: string | null;
  runAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

const POLL_MS = 1_000;
const PROGRESS_EVERY_MS = 250;
const defaultBackoff = (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 3_600_000);

export interface Jobs {
  define<P>(kind: string, handler: JobKind<P>): void;
  /** Answers the job's id; with a key that has a queued or running job, that job's id. */
  enqueue<P>(kind: string, payload: P, opts?: { key?: string; runAt?: number }): string;
  /** A named schedule (5-field cron, UTC): enqueues `kind` at each time, single flight by name. */
  schedule<P>(name: string, cron: string, kind: string, payload?: P): void;
  get(id: string): JobState | null;
  /** Starts the worker (the server only). */
  start(): void;
  /** Runs what is due now; answers when those runs have settled (tests drive it with a manual clock). */
  runDue(): Promise<void>;
  /** Stops the worker (its poll is a scheduler task): running handlers aborted (their rows run again at the next start). */
  stop(): void;
}

export function createJobs(host: JobHost): Jobs {
  const kinds = new Map<string, JobKind<unknown>>();
  // `next` null: not yet worked out, from `from` (the moment the schedule was declared).
  const schedules = new Map<
    string,
    { cron: string; kind: string; payload: unknown; from: number; next: number | null; last: number | null }
  >();
  const running = new Map<string, Promise<void>>();
  const controller = new AbortController();
  let poll: Task | null = null;
  let started = false;
  let stopped = false;

  const toState = (r: JobRow): JobState => ({
    id: r.id,
    kind: r.kind,
    state: r.state as JobState["state"],
    attempts: r.attempts,
    progress: r.progressTotal === null ? null : { done: r.progressDone ?? 0, total: r.progressTotal },
    error: r.error,
    runAt: r.runAt,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
  });

  function enqueue<P>(kind: string, payload: P, opts: { key?: string; runAt?: number } = {}): string {
    if (!kinds.has(kind)) throw new Error(`no job kind "${kind}"`);
    const handler = kinds.get(kind)!;
    const id = host.tx(() => {
      if (opts.key) {
        const existing = host.db
          .select({ id: jobs.id })
          .from(jobs)
          .where(and(eq(jobs.key, opts.key), inArray(jobs.state, ["queued", "running"])))
          .get();
        if (existing) return existing.id;
      }
      const now = host.clock.now();
      const row = {
        id: newId(),
        kind,
        key: opts.key ?? null,
        payload: JSON.stringify(payload ?? null),
        state: "queued",
        maxAttempts: handler.maxAttempts ?? 5,
        runAt: iso(opts.runAt ?? now),
        createdAt: iso(now),
      };
      host.db.insert(jobs).values(row).run();
      return row.id;
    });
    if (started) host.afterCommit(() => poll?.soon());
    return id;
  }

  function fireSchedules(now: number): void {
    for (const [name, s] of schedules) {
      s.next ??= nextFiring(name, s.cron, s.from);
      if (now < s.next) continue;
      enqueue(s.kind, s.payload, { key: `schedule:${name}` });
      s.last = now;
      s.next = nextFiring(name, s.cron, now);
    }
  }

  function nextFiring(name: string, cron: string, from: number): number {
    const next = nextCronRun(cron, from);
    if (next === null) throw new Error(`schedule ${name}: "${cron}" never fires`);
    return next;
  }

  const dueAt = (now: number) =>
    host.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.state, "queued"), lte(jobs.runAt, iso(now))))
      .orderBy(asc(jobs.runAt))
      .limit(8)
      .all();
  // The poll's question, built once (at its first asking: the table exists by then): it is
  // asked every second for the life of the server.
  const prepareAnyDue = () =>
    host.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.state, "queued"), lte(jobs.runAt, sql.placeholder("now"))))
      .limit(1)
      .prepare();
  let anyDue: ReturnType<typeof prepareAnyDue> | null = null;

  function claimDue(now: number): JobRow[] {
    // Read first: the poll of an idle server finds nothing and opens no write transaction.
    if (!(anyDue ??= prepareAnyDue()).get({ now: iso(now) })) return [];
    return host.bookkeeping(() => {
      const due = dueAt(now);
      for (const row of due) {
        host.db
          .update(jobs)
          .set({ state: "running", attempts: sql`${jobs.attempts} + 1`, startedAt: iso(now), error: null })
          .where(eq(jobs.id, row.id))
          .run();
        row.attempts++;
      }
      return due;
    });
  }

  async function execute(row: JobRow): Promise<void> {
    const handler = kinds.get(row.kind);
    let lastProgress = 0;
    const settle = (set: Partial<JobRow>) => host.bookkeeping(() => host.db.update(jobs).set(set).where(eq(jobs.id, row.id)).run());
    try {
      if (!handler) throw new Error(`no job kind "${row.kind}" in this version`);
      await handler.run({
        id: row.id,
        payload: JSON.parse(row.payload),
        attempt: row.attempts,
        signal: controller.signal,
        report(done, total) {
          const now = Date.now();
          if (now - lastProgress < PROGRESS_EVERY_MS && done < total) return;
          lastProgress = now;
          settle({ progressDone: done, progressTotal: total });
        },
      });
      if (stopped) return; // aborted at shutdown: stays "running", queued again at the next start
      settle({ state: "succeeded", finishedAt: iso(host.clock.now()) });
    } catch (err) {
      if (stopped) return;
      const message = err instanceof Error ? err.message : String(err);
      const now = host.clock.now();
      if (row.attempts >= row.maxAttempts) {
        settle({ state: "failed", error: message, finishedAt: iso(now) });
        host.log.error("job failed for good", { kind: row.kind, id: row.id, attempts: row.attempts, error: message });
      } else {
        const wait = (handler?.backoffMs ?? defaultBackoff)(row.attempts);
        settle({ state: "queued", error: message, runAt: iso(now + wait) });
        host.log.warn("job failed; will try again", { kind: row.kind, id: row.id, attempt: row.attempts, inMs: wait, error: message });
      }
    }
  }

  async function runDue(): Promise<void> {
    if (stopped || host.paused?.()) return;
    const now = host.clock.now();
    fireSchedules(now);
    const claimed = claimDue(now).map((row) => {
      const p = execute(row).finally(() => running.delete(row.id));
      running.set(row.id, p);
      return p;
    });
    await Promise.all(claimed);
  }

  return {
    define(kind, handler) {
      kinds.set(kind, handler as JobKind<unknown>);
    },
    enqueue,
    schedule(name, cron, kind, payload) {
      // Worked out at the first firing, from now: Bun's cron parser costs ~7 ms the first time it
      // runs, and every instance declares its schedules before the server listens.
      const s = { cron, kind, payload: payload ?? null, from: host.clock.now(), next: null as number | null, last: null as number | null };
      schedules.set(name, s);
      const at = (ms: number | null) => (ms === null ? null : iso(ms));
      host.scheduler.track(
        name,
        () => ({
          name,
          kind: "cron",
          when: `${cron} (a durable job)`,
          stopOrder: STOP.work,
          running: false,
          runs: 0,
          lastRunAt: at(s.last),
          lastError: null,
          nextRunAt: at(s.next ?? nextCronRun(cron, s.from)),
        }),
        () => {},
      );
    },
    get(id) {
      const row = host.db.select().from(jobs).where(eq(jobs.id, id)).get();
      return row ? toState(row) : null;
    },
    start() {
      if (started) return;
      started = true;
      // Left running by a crash or a stop: their try is over, so they count as failed once.
      // (Read first: a clean start has none and writes nothing.)
      if (host.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.state, "running")).limit(1).get()) {
        host.bookkeeping(() =>
          host.db.update(jobs).set({ state: "queued", error: "interrupted by a restart" }).where(eq(jobs.state, "running")).run(),
        );
      }
      const halt = () => {
        stopped = true;
        controller.abort();
      };
      // Runs never overlap: the next poll is POLL_MS after one has settled.
      poll = host.scheduler.every("jobs", POLL_MS, runDue, { firstInMs: 0, stopOrder: STOP.work, onStop: halt });
    },
    runDue,
    stop() {
      if (poll) return poll.stop();
      stopped = true;
      controller.abort();
    },
  };
}
