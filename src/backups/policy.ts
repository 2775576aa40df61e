/**
 * Retention and schedule (backups/state/policy.json): on disk beside the backups, not in the
 * database, so a restore does not take the policy back to an older one.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Core } from "../core";
import { PRIVATE_DIR } from "../platform/datadir";
import { invalid } from "../platform/errors";
import { writeFileDurably } from "../platform/durable-file";

export interface BackupPolicy {
  /** Retention on: backups outside both limits are removed after each backup. Off: nothing is removed automatically. */
  enabled: boolean;
  /** The newest this many scheduled (and automatic) backups are kept. */
  keepCount: number;
  /** Scheduled backups younger than this many days are kept. */
  keepDays: number;
  /** When scheduled backups are taken: a 5-field cron in the server's local time; null: never. */
  schedule: string | null;
}

export const DEFAULT_POLICY: BackupPolicy = { enabled: true, keepCount: 7, keepDays: 30, schedule: "0 3 * * *" };

export const POLICY_LIMITS = { keepCount: { min: 1, max: 1000 }, keepDays: { min: 0, max: 3650 }, scheduleLength: 100 } as const;

const policyPath = (backupsDir: string) => join(backupsDir, "state", "policy.json");

export function readPolicy(core: Core): BackupPolicy {
  const path = policyPath(core.data.backupsDir);
  if (!existsSync(path)) return { ...DEFAULT_POLICY };
  try {
    return checkPolicy({ ...DEFAULT_POLICY, ...(JSON.parse(readFileSync(path, "utf8")) as Partial<BackupPolicy>) });
  } catch (err) {
    core.log.warn("backup policy unreadable: the defaults apply", { path, error: err instanceof Error ? err.message : String(err) });
    return { ...DEFAULT_POLICY };
  }
}

export function writePolicy(core: Core, policy: BackupPolicy): void {
  mkdirSync(join(core.data.backupsDir, "state"), { recursive: true, mode: PRIVATE_DIR });
  writeFileDurably(policyPath(core.data.backupsDir), `${JSON.stringify(policy, null, 2)}\n`);
}

/** Whether a cron expression is one Bun.cron understands and ever fires. */
export function cronFires(expression: string): boolean {
  try {
    return Bun.cron.parse(expression, Date.now()) !== null;
  } catch {
    return false;
  }
}

/** The rules the schema cannot say (the schema already bounds types and ranges): 400 naming the field. */
export function checkPolicy(p: BackupPolicy): BackupPolicy {
  const int = (field: "keepCount" | "keepDays") => {
    const { min, max } = POLICY_LIMITS[field];
    if (!Number.isInteger(p[field]) || p[field] < min || p[field] > max)
      throw invalid(field, `must be a whole number from ${min} to ${max}`);
  };
  if (typeof p.enabled !== "boolean") throw invalid("enabled", "must be true or false");
  int("keepCount");
  int("keepDays");
  if (p.schedule !== null) {
    if (typeof p.schedule !== "string" || p.schedule.length > POLICY_LIMITS.scheduleLength)
      throw invalid("schedule", `must be a cron expression of at most ${POLICY_LIMITS.scheduleLength} characters, or null`);
    const trimmed = p.schedule.trim().replace(/\s+/g, " ");
    if (!cronFires(trimmed))
      throw invalid("schedule", 'must be a 5-field cron expression (minute hour day month weekday) that fires, e.g. "0 3 * * *"');
    p = { ...p, schedule: trimmed };
  }
  return { enabled: p.enabled, keepCount: p.keepCount, keepDays: p.keepDays, schedule: p.schedule };
}
