/**
 * Backup, restore and copy jobs: the scheduler's in-process runs (platform/scheduler-runs.ts),
 * NOT platform/jobs, whose rows live in the database a restore replaces under them; a job
 * interrupted by a stop is not resumed, its half-written folder is removed at the next start.
 * GET /api/admin/backups/jobs/{id} reads it.
 */
import type { Core } from "../core";
import type { RunHandle, RunState, RunView } from "../platform/scheduler-runs";

export type BackupJobKind = "backup" | "restore" | "restore-test" | "undo" | "copy";
export type BackupJobState = RunState;
export type BackupJobView = RunView<BackupJobKind>;
export type JobHandle = RunHandle;

/** Starts `run` now (it is async: the answer comes before it finishes) and answers the job as it starts. */
export const startJob = (core: Core, kind: BackupJobKind, run: (job: JobHandle) => Promise<unknown>) =>
  core.scheduler.runs.start(kind, run) as BackupJobView;

export const getJob = (core: Core, id: string) => core.scheduler.runs.get(id) as BackupJobView | null;

/** The running job of that kind, if any (single flight: one backup, one restore at a time). */
export const runningJob = (core: Core, kind: BackupJobKind) => core.scheduler.runs.running(kind) as BackupJobView | null;

/** Asks a running job to stop; answers whether there was one. */
export const cancelJob = (core: Core, id: string, reason = "cancelled") => core.scheduler.runs.cancel(id, reason);

/** Resolves when the job has finished (tests, the CLI, a restore waiting for its safety backup). */
export const settled = (core: Core, id: string) => core.scheduler.runs.settled(id) as Promise<BackupJobView | null>;
