/**
 * Copy jobs by target slot: one copy per slot at a time, run through the backups' in-memory job
 * registry (jobs.ts), so GET /api/admin/backups/jobs/{id} shows its progress.
 */
import type { Core } from "../core";
import { perInstance } from "../platform/memo";
import { getJob, startJob as startBackupJob, type BackupJobView, type JobHandle } from "./jobs";
import type { Slot } from "./targets-store";

export type { BackupJobView };

const copyJobs = perInstance((_core: Core) => new Map<Slot, string>());

/** The copy running now for each slot that has one. */
export function runningCopies(core: Core): Partial<Record<Slot, BackupJobView>> {
  const out: Partial<Record<Slot, BackupJobView>> = {};
  for (const [slot, id] of copyJobs(core)) {
    const job = getJob(core, id);
    if (job?.state === "running") out[slot] = job;
  }
  return out;
}

export function startJob(core: Core, slot: Slot, run: (job: JobHandle) => Promise<unknown>): BackupJobView {
  const job = startBackupJob(core, "copy", run);
  copyJobs(core).set(slot, job.id);
  return job;
}
