/**
 * Restore (docs/decisions.md, "Backups and restore"): the rules, called by HTTP and the CLI alike.
 *
 * A restore, as a job (jobs.ts), each step recorded in backups/state/restore.json first:
 *   1. maintenance on (writes answer 503, rooms saved and closed, jobs paused);
 *   2. a safety backup of the current data (takeBackup, kind "safety"): what undo puts back;
 *   3. the restored copy (restore-copy.ts) and its checks in a child process (restore-test.ts),
 *      or the report of a restore-test that passed on that very copy minutes ago;
 *   4. the swap (restore-swap.ts): from here it cannot be cancelled;
 *   5. maintenance off, in-memory state started again from the new data (onDataReplaced);
 *   6. `backup.restored` in the audit log, naming the replaced chain's head (the restored chain
 *      continues from its own head).
 * An undo is the same engine with the safety copy as the source (no new safety copy: what was
 * written between the restore and the undo goes with it; the preview of that copy says what).
 */
import { chainHead as auditHead } from "../audit/store";
import type { Core } from "../core";
import { markerCommitted } from "../platform/db/replace-data";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { AppError } from "../platform/errors";
import { startJob, cancelJob, getJob, type BackupJobView, type JobHandle } from "./jobs";
import { discardCopy, keepCopy, refuseUncovered, restoredCopy, restorableManifest, type RestoredCopy } from "./restore-copy";
import { runInChild } from "./restore-child";
import { diskNeeds } from "./restore-preview";
import { isUnderWay, MARKER_TABLE, readRestoreFile, updateRun, writeRestoreFile, type RestoreRun } from "./restore-state";
import { swapInCopy } from "./restore-swap";
import type { CheckReport } from "./restore-test";
import { takeBackup } from "./service";
import { markRemoved } from "./store";

/** Who asked (the audit event's actor). */
export interface RestoreActor {
  actorId: string | null;
  ip: string | null;
}

/** How long clients are told to wait before writing again. */
const RETRY_AFTER_SECONDS = 60;

export function currentRestore(core: Core): RestoreRun | null {
  const run = readRestoreFile(core).current;
  return isUnderWay(run) ? run : null;
}

/** 409 restore_running while a restore or an undo is under way (asked before anything else is checked or written). */
export function refuseIfRunning(core: Core): void {
  const run = currentRestore(core);
  if (run)
    throw new AppError("restore_running", {
      extra: { jobId: run.jobId },
      detail: `A ${run.kind} is under way (job ${run.jobId}); wait for it to finish.`,
    });
}

/** 507 insufficient_storage when the safety copy, the restored copy and the swap's log would not fit. */
function refuseWithoutSpace(core: Core, restoredBytes: number): void {
  const disk = diskNeeds(core, restoredBytes);
  if (disk.enough === false) {
    throw new AppError("insufficient_storage", {
      extra: { disk },
      detail:
        `The restore needs about ${Math.ceil(disk.neededBytes / 1e6)} MB free where the data directory ` +
        `is; ${Math.floor((disk.freeBytes ?? 0) / 1e6)} MB are. Nothing was changed.`,
    });
  }
}

/** Runs the checks on a copy (in a child process), unless they passed on this very file. */
export async function checkedCopy(core: Core, copy: RestoredCopy, signal?: AbortSignal): Promise<CheckReport> {
  const report = copy.checked ?? (await runInChild<CheckReport>(["check", copy.path, core.data.filesDir], signal));
  if (report.ok) copy.checked = report;
  return report;
}

/** POST {label}/restore-test: a scratch copy checked; nothing swapped. The copy stays kept, marked checked, for a restore right after. */
export function startRestoreTest(core: Core, label: string, at: number | null): BackupJobView {
  refuseUncovered(core, restorableManifest(core, label), at);
  return startJob(core, "restore-test", async (job) => {
    job.report("copying");
    const copy = await restoredCopy(core, label, at, { take: true, signal: job.signal, onProgress: (d, t) => job.report("copying", d, t) });
    try {
      job.report("checking");
      const report = await checkedCopy(core, copy, job.signal);
      return {
        label,
        at: at === null ? null : iso(at),
        lastCommitAt: copy.lastCommitAt === null ? null : iso(copy.lastCommitAt),
        ...report,
      };
    } finally {
      keepCopy(core, copy);
    }
  });
}

/** Starts a restore (the caller's rights and password are checked by the caller of this). */
export function startRestore(core: Core, label: string, at: number | null, by: RestoreActor): BackupJobView {
  refuseIfRunning(core);
  const manifest = restorableManifest(core, label);
  refuseUncovered(core, manifest, at);
  refuseWithoutSpace(core, manifest.bytes);
  return startSwapJob(core, { kind: "restore", label, at, by });
}

/** Starts an undo of the last restore: its safety copy put back. 409 nothing_kept when there is none. */
export function startUndo(core: Core, by: RestoreActor): BackupJobView {
  refuseIfRunning(core);
  const kept = readRestoreFile(core).kept;
  if (!kept) throw new AppError("nothing_kept", { detail: "No restore has left a safety copy to put back (it was undone or discarded)." });
  refuseWithoutSpace(core, restorableManifest(core, kept.safetyLabel).bytes);
  return startSwapJob(core, { kind: "undo", label: kept.safetyLabel, at: null, by });
}

/** Deletes the kept safety copy (the backup is marked removed, "discarded"); audited. */
export function discardKept(core: Core, by: RestoreActor): { label: string } {
  refuseIfRunning(core);
  const file = readRestoreFile(core);
  if (!file.kept) throw new AppError("nothing_kept", { detail: "No restore has left a safety copy to remove." });
  const label = file.kept.safetyLabel;
  markRemoved(core, label, "discarded");
  writeRestoreFile(core, { ...file, kept: null });
  core.tx(() =>
    recordEvent(core, {
      type: "backup.restore_discarded",
      targetType: "backup",
      targetId: label,
      spaceId: null,
      actorId: by.actorId,
      ip: by.ip,
      data: { label },
    }),
  );
  return { label };
}

/** Stops a restore that has not begun its swap; 409 restore_swapped once it has, 409 nothing running otherwise. */
export function cancelRestore(core: Core): BackupJobView {
  const run = currentRestore(core);
  if (!run || !run.jobId) throw new AppError("conflict", { detail: "No restore is under way." });
  if (run.phase === "swapping" || run.phase === "finishing")
    throw new AppError("restore_swapped", {
      extra: { jobId: run.jobId },
      detail: "The data has been replaced already: undo the restore instead (POST /api/admin/backups/restore/undo).",
    });
  cancelJob(core, run.jobId, "cancelled by an administrator");
  return getJob(core, run.jobId)!;
}

interface SwapRequest {
  kind: "restore" | "undo";
  label: string;
  at: number | null;
  by: RestoreActor;
}

function startSwapJob(core: Core, req: SwapRequest): BackupJobView {
  const run: RestoreRun = {
    id: newId(),
    kind: req.kind,
    label: req.label,
    at: req.at,
    phase: "preparing",
    jobId: null,
    actorId: req.by.actorId,
    ip: req.by.ip,
    safetyLabel: null,
    replacedHead: null,
    startedAt: iso(core.clock.now()),
    finishedAt: null,
    error: null,
  };
  const file = readRestoreFile(core);
  writeRestoreFile(core, { ...file, current: run });
  const view = startJob(core, req.kind, (job) => runSwap(core, run, job));
  updateRun(core, { jobId: view.id });
  return view;
}

async function runSwap(core: Core, run: RestoreRun, job: JobHandle) {
  let copy: RestoredCopy | null = null;
  let swapped = false;
  core.maintenance.enter(run.kind, RETRY_AFTER_SECONDS, core.clock.now());
  try {
    // 2.
    let safetyLabel: string | null = null;
    if (run.kind === "restore") {
      job.report("safety-backup");
      const safety = await takeBackup(core, "safety", {
        signal: job.signal,
        by: { actorId: run.actorId, ip: run.ip },
        onProgress: (d, t) => job.report("safety-backup", d, t),
      });
      safetyLabel = safety.label;
      updateRun(core, { safetyLabel });
    }
    // 3.
    job.report("copying");
    copy = await restoredCopy(core, run.label, run.at, {
      take: true,
      signal: job.signal,
      onProgress: (d, t) => job.report("copying", d, t),
    });
    updateRun(core, { phase: "checking" });
    job.report("checking");
    const report = await checkedCopy(core, copy, job.signal);
    if (!report.ok) {
      const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
      throw new AppError("restore_checks_failed", {
        extra: { report },
        detail: `The restored copy failed its checks; nothing was replaced. ${failed.join(" ")}`,
      });
    }
    job.signal.throwIfAborted();
    // 4. Past this point the restore is not cancelled: it commits or rolls back whole.
    const replacedHead = auditHead(core);
    updateRun(core, { phase: "swapping", replacedHead });
    job.report("swapping");
    const result = await swapInCopy(core, copy.path, run.id, (d, t) => job.report("swapping", d, t));
    swapped = true;
    // 5. and 6.
    const finished = finishSwap(core, { ...run, safetyLabel, replacedHead, phase: "finishing" });
    return {
      label: run.label,
      at: run.at === null ? null : iso(run.at),
      safetyLabel,
      replacedHead,
      restoredHead: finished.restoredHead,
      rows: result.rows,
      tables: result.tables,
      swapMs: result.ms,
    };
  } catch (err) {
    if (!swapped) {
      core.maintenance.leave();
      const cancelled = job.signal.aborted;
      updateRun(core, {
        phase: cancelled ? "cancelled" : "failed",
        finishedAt: iso(core.clock.now()),
        error: cancelled ? "cancelled" : err instanceof Error ? err.message : String(err),
      });
    }
    throw err;
  } finally {
    if (copy) discardCopy(copy);
  }
}

/**
 * After the swap committed (here, or found committed at start-up): maintenance off, in-memory
 * state restarted, the audit event, the state file. Answers the restored chain's head.
 */
export function finishSwap(core: Core, run: RestoreRun): { restoredHead: { sequence: number; hash: string } | null } {
  core.maintenance.leave();
  core.maintenance.dataReplaced((err) =>
    core.log.error("restarting in-memory state after a restore failed", {
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    }),
  );
  const restoredHead = auditHead(core);
  const type = run.kind === "restore" ? "backup.restored" : "backup.restore_undone";
  // The heads as {sequence, digest}: the audit log redacts keys ending in "hash" (audit/chain.ts).
  const head = (h: { sequence: number; hash: string } | null) => h && { sequence: h.sequence, digest: h.hash };
  const data = {
    label: run.label,
    at: run.at === null ? null : iso(run.at),
    safetyLabel: run.safetyLabel,
    replacedHead: head(run.replacedHead),
    restoredHead: head(restoredHead),
  };
  core.tx(() =>
    recordEvent(core, { type, targetType: "backup", targetId: run.label, spaceId: null, actorId: run.actorId, ip: run.ip, data }),
  );
  const kept =
    run.kind === "restore" && run.safetyLabel
      ? { safetyLabel: run.safetyLabel, restoredLabel: run.label, restoredAt: iso(core.clock.now()) }
      : null;
  const file = readRestoreFile(core);
  writeRestoreFile(core, { ...file, current: { ...run, phase: "done", finishedAt: iso(core.clock.now()) }, kept });
  return { restoredHead };
}

/**
 * At start (server or CLI), before anything else runs: a restore the process died in resolves
 * to the old data or the new, never a mix. Its swap's marker row says which (SQLite committed
 * the swap and the marker together, or neither). Maintenance is off anyway: it lives in memory.
 */
export function recoverInterruptedRestore(core: Core): "none" | "finished" | "failed" {
  const run = currentRestore(core);
  if (!run) return "none";
  if ((run.phase === "swapping" || run.phase === "finishing") && markerCommitted(core, MARKER_TABLE, run.id)) {
    finishSwap(core, run);
    core.log.warn("a restore interrupted by a stop had replaced the data: it is finished now", { label: run.label, kind: run.kind });
    return "finished";
  }
  updateRun(core, {
    phase: "failed",
    finishedAt: iso(core.clock.now()),
    error: `interrupted by a stop during ${run.phase}; the data was not replaced`,
  });
  core.log.warn("a restore interrupted by a stop had not replaced the data: the data is as it was", { label: run.label, kind: run.kind });
  return "failed";
}
