/**
 * Backup, restore and copy jobs: an in-memory registry, NOT platform/jobs. Those rows live in
 * the database, which a restore replaces under them (a restore's own progress would vanish in
 * the middle, and a restored database would bring back old job rows); and this work belongs to
 * one running process anyway: a job interrupted by a stop is not resumed, its half-written
 * folder is removed at the next start. GET /api/admin/backups/jobs/{id} reads it.
 */
import type { Core } from "../core";
import { iso } from "../platform/clock";
import { AppError } from "../platform/errors";
import { newId } from "../platform/crypto";

export type BackupJobKind = "backup" | "restore" | "restore-test" | "undo" | "copy";
export type BackupJobState = "running" | "succeeded" | "failed" | "cancelled";

export interface BackupJobView {
  id: string;
  kind: BackupJobKind;
  state: BackupJobState;
  phase: string;
  progress: { done: number; total: number } | null;
  startedAt: string;
  finishedAt: string | null;
  error: { code: string; message: string } | null;
  result: unknown;
}

export interface JobHandle {
  report(phase: string, done?: number, total?: number): void;
  signal: AbortSignal;
}

interface Entry {
  view: BackupJobView;
  controller: AbortController;
  done: Promise<void>;
}

/** Finished jobs are kept this long and at most this many (the screen reads a job's end once). */
const KEEP_FINISHED_MS = 24 * 3_600_000;
const KEEP_FINISHED = 100;

const registries = new WeakMap<Core, Map<string, Entry>>();

function registryOf(core: Core): Map<string, Entry> {
  let r = registries.get(core);
  if (!r) {
    r = new Map();
    registries.set(core, r);
    const jobs = r;
    // A stop aborts what runs (its half-written folder is removed at the next start).
    core.onClose(() => {
      for (const e of jobs.values()) if (e.view.state === "running") e.controller.abort(new Error("the server is stopping"));
    });
  }
  return r;
}

function prune(core: Core, jobs: Map<string, Entry>): void {
  const cutoff = core.clock.now() - KEEP_FINISHED_MS;
  const finished = [...jobs.values()].filter((e) => e.view.finishedAt);
  finished.forEach((e, i) => {
    if (Date.parse(e.view.finishedAt!) < cutoff || i < finished.length - KEEP_FINISHED) jobs.delete(e.view.id);
  });
}

const copy = (v: BackupJobView): BackupJobView => ({ ...v, progress: v.progress && { ...v.progress }, error: v.error && { ...v.error } });

function errorOf(err: unknown): { code: string; message: string } {
  if (err instanceof AppError) return { code: err.problemCode, message: err.message };
  return { code: "internal_error", message: err instanceof Error ? err.message : String(err) };
}

/** Starts `run` now (it is async: the answer comes before it finishes) and answers the job as it starts. */
export function startJob(core: Core, kind: BackupJobKind, run: (job: JobHandle) => Promise<unknown>): BackupJobView {
  const jobs = registryOf(core);
  prune(core, jobs);
  const controller = new AbortController();
  const view: BackupJobView = { id: newId(), kind, state: "running", phase: "starting", progress: null, startedAt: iso(core.clock.now()), finishedAt: null, error: null, result: null };
  const handle: JobHandle = {
    signal: controller.signal,
    report(phase, done, total) {
      view.phase = phase;
      view.progress = total === undefined ? null : { done: done ?? 0, total };
    },
  };
  const finish = (state: BackupJobState, patch: Partial<BackupJobView>) => {
    Object.assign(view, patch, { state, finishedAt: iso(core.clock.now()) });
  };
  const done = Promise.resolve()
    .then(() => run(handle))
    .then(
      (result) => finish("succeeded", { result: result ?? null, phase: "done" }),
      (err) => {
        if (controller.signal.aborted) return finish("cancelled", { error: { code: "cancelled", message: String((controller.signal.reason as Error)?.message ?? "cancelled") } });
        if (!(err instanceof AppError)) core.log.error(`${kind} job failed`, { id: view.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
        finish("failed", { error: errorOf(err) });
      },
    );
  jobs.set(view.id, { view, controller, done });
  return copy(view);
}

export function getJob(core: Core, id: string): BackupJobView | null {
  const e = registryOf(core).get(id);
  return e ? copy(e.view) : null;
}

/** The running job of that kind, if any (single flight: one backup, one restore at a time). */
export function runningJob(core: Core, kind: BackupJobKind): BackupJobView | null {
  for (const e of registryOf(core).values()) if (e.view.kind === kind && e.view.state === "running") return copy(e.view);
  return null;
}

/** Asks a running job to stop; answers whether there was one. */
export function cancelJob(core: Core, id: string, reason = "cancelled"): boolean {
  const e = registryOf(core).get(id);
  if (!e || e.view.state !== "running") return false;
  e.controller.abort(new Error(reason));
  return true;
}

/** Resolves when the job has finished (tests, the CLI, a restore waiting for its safety backup). */
export async function settled(core: Core, id: string): Promise<BackupJobView | null> {
  await registryOf(core).get(id)?.done;
  return getJob(core, id);
}
