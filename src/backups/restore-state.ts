/**
 * backups/state/restore.json: where a restore (or its undo) stands, on disk beside the backups
 * (never in the database it replaces), and what is kept for an undo.
 *
 *   preparing → checking → swapping → (committed: finishing → done) | failed | cancelled
 *
 * `swapping` is written before the swap's transaction begins. If the process dies there, the
 * next start asks the database whether the swap committed (its marker row, written in the same
 * transaction: platform/db/replace-data.ts): yes, the restored data is live and the restore is
 * finished at start (its audit event recorded); no, the old data is live and it failed. SQLite's
 * atomic commit means there is no third case. Any other state left by a crash simply failed.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Core } from "../core";
import { PRIVATE_DIR } from "../platform/datadir";
import { writeFileDurably } from "../platform/durable-file";

/** The table the swap leaves alone and marks (created by the swap itself). */
export const MARKER_TABLE = "__cairn_restores";

export type RestorePhase = "preparing" | "checking" | "swapping" | "finishing" | "done" | "failed" | "cancelled";

export interface RestoreRun {
  /** Also the marker row's id. */
  id: string;
  kind: "restore" | "undo";
  /** The backup put in (for an undo, the safety copy). */
  label: string;
  at: number | null;
  phase: RestorePhase;
  jobId: string | null;
  actorId: string | null;
  ip: string | null;
  /** The safety copy of the replaced data (a restore's; null before it is taken, and for an undo). */
  safetyLabel: string | null;
  /** The audit chain's head before the swap: the restored chain's event names it. */
  replacedHead: { sequence: number; hash: string } | null;
  startedAt: string;
  finishedAt: string | null;
  error: string | null;
}

export interface RestoreFile {
  format: 1;
  current: RestoreRun | null;
  /** What an undo would put back: the last restore's safety copy, until undone or discarded. */
  kept: { safetyLabel: string; restoredLabel: string; restoredAt: string } | null;
}

const EMPTY: RestoreFile = { format: 1, current: null, kept: null };

const statePath = (core: Core) => join(core.data.backupsDir, "state", "restore.json");

export function readRestoreFile(core: Core): RestoreFile {
  const path = statePath(core);
  if (!existsSync(path)) return { ...EMPTY };
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as RestoreFile;
    return value && value.format === 1 ? value : { ...EMPTY };
  } catch {
    return { ...EMPTY };
  }
}

export function writeRestoreFile(core: Core, file: RestoreFile): void {
  mkdirSync(join(core.data.backupsDir, "state"), { recursive: true, mode: PRIVATE_DIR });
  writeFileDurably(statePath(core), `${JSON.stringify(file, null, 2)}\n`);
}

/** Changes the current run (and what is kept) in one durable write. */
export function updateRun(core: Core, change: Partial<RestoreRun>, kept?: RestoreFile["kept"]): RestoreRun {
  const file = readRestoreFile(core);
  if (!file.current) throw new Error("no restore is recorded");
  file.current = { ...file.current, ...change };
  if (kept !== undefined) file.kept = kept;
  writeRestoreFile(core, file);
  return file.current;
}

export const isUnderWay = (run: RestoreRun | null) => run !== null && !["done", "failed", "cancelled"].includes(run.phase);

/** The list's view (GET /api/admin/backups `restore`): a restore or undo under way, and what an undo would put back. */
export function restoreSummary(core: Core) {
  const file = readRestoreFile(core);
  const run = isUnderWay(file.current) ? file.current! : null;
  return {
    running: run && { jobId: run.jobId, kind: run.kind, label: run.label, phase: run.phase, startedAt: run.startedAt },
    kept: file.kept,
  };
}
