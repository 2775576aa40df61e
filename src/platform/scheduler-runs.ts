/**
 * The scheduler's in-process runs (backups, restores, copies): kept in memory, not as rows in the
 * database a restore replaces under them. A stop aborts them; nothing resumes them. Finished
 * runs stay readable for a day (at most 100).
 */
import type { Clock } from "./clock";
import { iso } from "./clock";
import { newId } from "./crypto";
import { AppError } from "./errors";
import type { Logger } from "./log";
import { STOP, type Scheduler } from "./scheduler";

export type RunState = "running" | "succeeded" | "failed" | "cancelled";

export interface RunView<K extends string = string> {
  id: string;
  kind: K;
  state: RunState;
  phase: string;
  progress: { done: number; total: number } | null;
  startedAt: string;
  finishedAt: string | null;
  error: { code: string; message: string } | null;
  result: unknown;
}

export interface RunHandle {
  report(phase: string, done?: number, total?: number): void;
  signal: AbortSignal;
}

export interface Runs {
  /** Starts `run` now and answers the run as it starts. */
  start(kind: string, run: (handle: RunHandle) => Promise<unknown>): RunView;
  get(id: string): RunView | null;
  running(kind: string): RunView | null;
  cancel(id: string, reason?: string): boolean;
  settled(id: string): Promise<RunView | null>;
}

const KEEP_FINISHED_MS = 24 * 3_600_000;
const KEEP_FINISHED = 100;

type Entry = { view: RunView; controller: AbortController; done: Promise<void> };

const copy = (v: RunView): RunView => ({ ...v, progress: v.progress && { ...v.progress }, error: v.error && { ...v.error } });

function errorOf(err: unknown): { code: string; message: string } {
  if (err instanceof AppError) return { code: err.problemCode, message: err.message };
  return { code: "internal_error", message: err instanceof Error ? err.message : String(err) };
}

export function createRuns(scheduler: Scheduler, host: { clock: Clock; log: Logger }): Runs {
  const runs = new Map<string, Entry>();
  let last: RunView | null = null;
  scheduler.track(
    "runs",
    () => {
      const active = [...runs.values()].filter((e) => e.view.state === "running").map((e) => e.view.kind);
      return {
        name: "runs",
        kind: "runs",
        when: active.length ? `now: ${active.join(", ")}` : "when asked (backups, restores, copies)",
        stopOrder: STOP.work,
        running: active.length > 0,
        runs: runs.size,
        lastRunAt: last?.startedAt ?? null,
        lastError: last?.error && last.finishedAt ? { at: last.finishedAt, message: last.error.message } : null,
        nextRunAt: null,
      };
    },
    // (A backup's half-written folder is removed at the next start.)
    () => {
      for (const e of runs.values()) if (e.view.state === "running") e.controller.abort(new Error("the server is stopping"));
    },
  );

  function prune(): void {
    const cutoff = host.clock.now() - KEEP_FINISHED_MS;
    const finished = [...runs.values()].filter((e) => e.view.finishedAt);
    finished.forEach((e, i) => {
      if (Date.parse(e.view.finishedAt!) < cutoff || i < finished.length - KEEP_FINISHED) runs.delete(e.view.id);
    });
  }

  return {
    start(kind, run) {
      prune();
      const controller = new AbortController();
      const view: RunView = {
        id: newId(),
        kind,
        state: "running",
        phase: "starting",
        progress: null,
        startedAt: iso(host.clock.now()),
        finishedAt: null,
        error: null,
        result: null,
      };
      last = view;
      const handle: RunHandle = {
        signal: controller.signal,
        report(phase, done, total) {
          view.phase = phase;
          view.progress = total === undefined ? null : { done: done ?? 0, total };
        },
      };
      const finish = (state: RunState, patch: Partial<RunView>) => Object.assign(view, patch, { state, finishedAt: iso(host.clock.now()) });
      const done = Promise.resolve()
        .then(() => run(handle))
        .then(
          (result) => void finish("succeeded", { result: result ?? null, phase: "done" }),
          (err) => {
            if (controller.signal.aborted)
              return void finish("cancelled", {
                error: { code: "cancelled", message: String((controller.signal.reason as Error)?.message ?? "cancelled") },
              });
            if (!(err instanceof AppError))
              host.log.error(`${kind} job failed`, { id: view.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
            finish("failed", { error: errorOf(err) });
          },
        );
      runs.set(view.id, { view, controller, done });
      return copy(view);
    },
    get(id) {
      const e = runs.get(id);
      return e ? copy(e.view) : null;
    },
    running(kind) {
      for (const e of runs.values()) if (e.view.kind === kind && e.view.state === "running") return copy(e.view);
      return null;
    },
    cancel(id, reason = "cancelled") {
      const e = runs.get(id);
      if (!e || e.view.state !== "running") return false;
      e.controller.abort(new Error(reason));
      return true;
    },
    async settled(id) {
      await runs.get(id)?.done;
      const e = runs.get(id);
      return e ? copy(e.view) : null;
    },
  };
}
