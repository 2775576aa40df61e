/**
 * Scheduled backups: default daily at 03:00 in the server's local time (policy.schedule, a
 * 5-field cron read as local time). A timer of its own, not core.jobs.schedule: that one
 * enqueues rows in the database a restore replaces. Bun.cron.parse does the calendar
 * arithmetic, and reads the expression in the process's local time zone (TZ; measured: with
 * TZ=Asia/Kolkata "0 3 * * *" answers 21:30 UTC), daylight saving included.
 */
import type { Core } from "../core";
import { readPolicy } from "./policy";

/** Longest a timer may wait (setTimeout's limit); a later run is re-armed on the way. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/** The next time `cron` (local time) fires after `now`, in ms; null: never. */
export function nextRunAfter(cron: string, now: number): number | null {
  try {
    return Bun.cron.parse(cron, now)?.getTime() ?? null;
  } catch {
    return null;
  }
}

interface Armed {
  start: () => void;
  timer: ReturnType<typeof setTimeout> | null;
  at: number | null;
}
const armed = new WeakMap<Core, Armed>();

/** When the next scheduled backup runs (ISO), by the stored policy; null when none is scheduled. */
export function nextScheduledRun(core: Core): string | null {
  const a = armed.get(core);
  if (a) return a.at === null ? null : new Date(a.at).toISOString();
  const cron = readPolicy(core).schedule;
  const at = cron ? nextRunAfter(cron, core.clock.now()) : null;
  return at === null ? null : new Date(at).toISOString();
}

function arm(core: Core, a: Armed): void {
  if (a.timer) clearTimeout(a.timer);
  a.timer = null;
  const cron = readPolicy(core).schedule;
  a.at = cron ? nextRunAfter(cron, Date.now()) : null;
  if (a.at === null) return;
  const at = a.at;
  a.timer = setTimeout(
    () => {
      if (Date.now() >= at) {
        try {
          a.start();
        } catch (err) {
          // Most often one is already running (by hand): that one counts as tonight's.
          core.log.warn("scheduled backup not started", { error: err instanceof Error ? err.message : String(err) });
        }
      }
      arm(core, a);
    },
    Math.min(Math.max(at - Date.now(), 0), MAX_DELAY_MS),
  );
  a.timer.unref?.();
}

/** The server's schedule: `start` takes a scheduled backup. Stops at close. */
export function installBackupSchedule(core: Core, start: () => void): void {
  if (armed.has(core)) return;
  const a: Armed = { start, timer: null, at: null };
  armed.set(core, a);
  core.onClose(() => {
    if (a.timer) clearTimeout(a.timer);
    a.timer = null;
  });
  arm(core, a);
}

/** After the policy changed: the next run follows the new schedule. */
export function rescheduleBackups(core: Core): void {
  const a = armed.get(core);
  if (a) arm(core, a);
}
