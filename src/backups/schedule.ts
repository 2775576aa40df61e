/**
 * Scheduled backups: default daily at 03:00 in the server's local time (policy.schedule, a
 * 5-field cron read as local time, the scheduler's one rule: platform/scheduler.ts). A cron task
 * of the scheduler, not core.jobs.schedule: that one enqueues rows in the database a restore
 * replaces.
 */
import type { Core } from "../core";
import { nextCronRun, type Task } from "../platform/scheduler";
import { readPolicy } from "./policy";

const armed = new WeakMap<Core, Task>();

/** When the next scheduled backup runs (ISO), by the stored policy; null when none is scheduled. */
export function nextScheduledRun(core: Core): string | null {
  const task = armed.get(core);
  const cron = task ? null : readPolicy(core).schedule;
  const at = task ? task.nextRunAt : cron ? nextCronRun(cron, core.clock.now()) : null;
  return at === null ? null : new Date(at).toISOString();
}

/** The server's schedule: `start` takes a scheduled backup. Stops at close. */
export function installBackupSchedule(core: Core, start: () => void): void {
  if (armed.has(core)) return;
  const run = () => {
    try {
      start();
    } catch (err) {
      // Most often one is already running (by hand): that one counts as tonight's.
      core.log.warn("scheduled backup not started", { error: err instanceof Error ? err.message : String(err) });
    }
  };
  armed.set(
    core,
    core.scheduler.cron("backups.schedule", () => readPolicy(core).schedule, run),
  );
}

/** After the policy changed: the next run follows the new schedule. */
export function rescheduleBackups(core: Core): void {
  armed.get(core)?.rearm();
}
