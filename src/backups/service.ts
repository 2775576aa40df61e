/**
 * Backups (docs/decisions.md, "Backups and restore"): take one, list them, remove one by hand, the
 * policy and its preview. takeBackup has no rights check: HTTP, the CLI, the scheduler and a
 * restore's safety copy all call it; the functions that take a caller check the rights.
 */
import { chmodSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Core } from "../core";
import { deleteUnusedBlobs } from "../attachments/blob-refs";
import { requireReauth } from "../auth/service";
import { recordEvent } from "../events/outbox";
import { requireUser, type Caller } from "../identity/caller";
import { requireRight } from "../identity/rights";
import { holdBlobDeletes } from "../platform/backup/pins";
import { coverage } from "../platform/backup/replay";
import { snapshotInstance } from "../platform/backup/snapshot";
import { iso } from "../platform/clock";
import { PRIVATE_FILE } from "../platform/datadir";
import { AppError } from "../platform/errors";
import { keepArchiveBounded, keepGenerationCovered } from "./archive-watch";
import { archiveStatus } from "./archive-bound";
import { restoreSummary } from "./restore-state";
import { getJob, runningJob, startJob, type BackupJobView } from "./jobs";
import type { BackupKind, BackupManifest } from "./manifest";
import { describeCopy, type CopyContents } from "./queries";
import { runInChild } from "./restore-child";
import { checkPolicy, readPolicy, writePolicy, type BackupPolicy } from "./policy";
import { applyRetention, previewRetention, pruneWalArchive } from "./retention";
import { installBackupSchedule, nextScheduledRun, rescheduleBackups } from "./schedule";
import { completePartial, freeLabel, lastBackupAt, listManifests, markRemoved, readManifest, removePartials, startPartial } from "./store";

export interface BackupActor {
  actorId: string | null;
  ip: string | null;
}
const SYSTEM: BackupActor = { actorId: null, ip: null };

export interface TakeBackupOptions {
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  by?: BackupActor;
}

/**
 * A page-exact copy of the live database as it stands now (platform/backup/snapshot.ts:
 * writers keep going), written into backups/.partial-<label>/, described from the copy itself,
 * and renamed into place with its manifest. A failure or abort leaves nothing listed.
 */
export async function takeBackup(core: Core, kind: BackupKind, opts: TakeBackupOptions = {}): Promise<BackupManifest> {
  const backupsDir = core.data.backupsDir;
  const now = core.clock.now();
  const label = freeLabel(backupsDir, now);
  const partial = startPartial(backupsDir, label);
  // From the copy until its manifest names them, no blob may go (pins.ts).
  const release = holdBlobDeletes();
  const timings = { copyMs: 0, describeMs: 0, completeMs: 0 };
  let manifest: BackupManifest;
  try {
    const dest = join(partial, "cairn.db");
    const copyFrom = performance.now();
    const snap = await snapshotInstance(core, { dest, onProgress: opts.onProgress, signal: opts.signal });
    chmodSync(dest, PRIVATE_FILE);
    timings.copyMs = performance.now() - copyFrom;
    const describeFrom = performance.now();
    const contents = await describeBackupCopy(dest, snap.bytes, opts.signal);
    timings.describeMs = performance.now() - describeFrom;
    for (const extra of ["cairn.db-wal", "cairn.db-shm"]) rmSync(join(partial, extra), { force: true });
    opts.signal?.throwIfAborted();
    // The archive's frames up to the copy's position are on disk before the manifest says the copy is a base.
    await core.wal?.flushInBackground();
    manifest = {
      format: 1,
      label,
      kind,
      createdAt: iso(now),
      appVersion: core.version,
      bytes: snap.bytes,
      sha256: snap.sha256,
      ...contents,
      wal: snap.position,
      removedAt: null,
      removedReason: null,
    };
    const completeFrom = performance.now();
    completePartial(backupsDir, partial, manifest);
    timings.completeMs = performance.now() - completeFrom;
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    throw err;
  } finally {
    release();
  }
  const by = opts.by ?? SYSTEM;
  core.tx(() =>
    recordEvent(core, {
      type: "backup.created",
      targetType: "backup",
      targetId: label,
      spaceId: null,
      actorId: by.actorId,
      ip: by.ip,
      data: { kind, bytes: manifest.bytes },
    }),
  );
  const ms = Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v)]));
  core.log.info("backup taken", { label, kind, bytes: manifest.bytes, ...ms });
  return manifest;
}

/**
 * What the copy holds. Counting a large copy's versions holds the thread for a while (~110 ms
 * on 1 GB, measured), so past DESCRIBE_IN_PROCESS_MAX bytes it is read in a child process of the
 * executable (restore-child.ts); a small one is read here in a few ms.
 */
export const DESCRIBE_IN_PROCESS_MAX = 64 * 1024 * 1024;
export async function describeBackupCopy(
  path: string,
  bytes: number,
  signal?: AbortSignal,
  inProcessMax = DESCRIBE_IN_PROCESS_MAX,
): Promise<CopyContents> {
  return bytes <= inProcessMax ? describeCopy(path) : runInChild<CopyContents>(["describe", path], signal);
}

/**
 * A backup as a job (on demand and on the schedule): single flight (409 backup_running while
 * one runs), then retention. Answers the job as it starts.
 */
export function startBackupJob(core: Core, kind: BackupKind, by: BackupActor = SYSTEM): BackupJobView {
  const running = runningJob(core, "backup");
  if (running)
    throw new AppError("backup_running", {
      extra: { job: running },
      detail: `A backup is being taken (job ${running.id}); wait for it to finish.`,
    });
  return startJob(core, "backup", async (job) => {
    job.report("copying", 0, 1);
    const manifest = await takeBackup(core, kind, {
      by,
      signal: job.signal,
      onProgress: (done, total) => job.report("copying", done, total),
    });
    job.report("retention");
    const removed = applyRetention(core);
    return { backup: viewOf(manifest), removed: removed.map((m) => m.label) };
  });
}

/** A manifest as the API shows it: the blob list is reduced to its length. */
export function viewOf(m: BackupManifest) {
  const { files, ...rest } = m;
  return { ...rest, fileCount: files.length };
}

const manager = (caller: Caller) => {
  const user = requireUser(caller);
  requireRight(user, "backups.manage");
  return user;
};

export function runBackup(core: Core, caller: Caller): BackupJobView {
  const user = manager(caller);
  return startBackupJob(core, "manual", { actorId: user.user.id, ip: caller.ip });
}

export function backupJob(core: Core, caller: Caller, id: string): BackupJobView {
  manager(caller);
  const job = getJob(core, id);
  if (!job)
    throw new AppError("not_found", {}, "There is no such backup job (jobs are kept in memory for a day, and not across a restart)");
  return job;
}

export function listBackups(core: Core, caller: Caller, opts: { includeRemoved?: boolean }) {
  manager(caller);
  const all = listManifests(core, opts);
  const policy = readPolicy(core);
  return {
    backups: all.map(viewOf),
    policy,
    schedule: { cron: policy.schedule, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, nextRunAt: nextScheduledRun(core) },
    lastBackupAt: lastBackupAt(core),
    running: runningJob(core, "backup"),
    // The spans a restore can reach any second of (platform/backup/replay.ts).
    pointInTime: pointInTime(core),
    // How big the WAL archive is, its limit, and how far back a restore reaches (archive-bound.ts).
    archive: archiveStatus(core),
    // A restore under way, and the safety copy an undo would put back (restore-state.ts).
    restore: restoreSummary(core),
  };
}

/** The archive's coverage; an archive that cannot be read covers nothing (logged), and the list still answers. */
function pointInTime(core: Core): Array<{ generation: string; from: number; to: number }> {
  try {
    return coverage(join(core.data.backupsDir, "wal"));
  } catch (err) {
    core.log.error("WAL archive unreadable", { error: err instanceof Error ? err.message : String(err) });
    return [];
  }
}

export function setPolicy(
  core: Core,
  caller: Caller,
  input: BackupPolicy | (Omit<BackupPolicy, "schedule"> & { schedule?: string | null }),
) {
  const user = manager(caller);
  requireReauth(core, user);
  const before = readPolicy(core);
  const policy = checkPolicy({ ...input, schedule: input.schedule === undefined ? before.schedule : input.schedule });
  writePolicy(core, policy);
  core.tx(() =>
    recordEvent(core, {
      type: "backup.policy_changed",
      targetType: "backup",
      targetId: "policy",
      spaceId: null,
      actorId: user.user.id,
      ip: caller.ip,
      data: { from: before, to: policy },
    }),
  );
  rescheduleBackups(core);
  return policy;
}

/** What this policy would remove now; removes nothing. */
export function previewPolicy(core: Core, caller: Caller, input: Omit<BackupPolicy, "schedule"> & { schedule?: string | null }) {
  manager(caller);
  const policy = checkPolicy({ ...input, schedule: input.schedule ?? null });
  const remove = previewRetention(core, policy);
  return { remove: remove.map(viewOf), keep: listManifests(core).length - remove.length };
}

/** Removes a backup by hand (any kind): its copy goes, its manifest stays marked. */
export function removeBackup(core: Core, caller: Caller, label: string): void {
  const user = manager(caller);
  requireReauth(core, user);
  const m = readManifest(core, label);
  if (!m || m.removedAt) throw new AppError("backup_not_found", { detail: `There is no backup ${label}.` });
  markRemoved(core, label, "by_hand");
  core.tx(() => {
    recordEvent(core, {
      type: "backup.removed",
      targetType: "backup",
      targetId: label,
      spaceId: null,
      actorId: user.user.id,
      ip: caller.ip,
      data: { kind: m.kind, reason: "by_hand" },
    });
    // Its files no row and no other retained backup needs go now (after the commit).
    deleteUnusedBlobs(core, m.files);
  });
  pruneWalArchive(core);
}

/**
 * At the server's start: a backup half-written when the process died is removed (never
 * listed: its folder still has the .partial- name), and the schedule is armed.
 */
export function startBackups(core: Core): void {
  const removed = removePartials(core.data.backupsDir);
  if (removed.length) core.log.info("removed half-written backups", { folders: removed });
  installBackupSchedule(core, () => startBackupJob(core, "scheduled"));
  keepGenerationCovered(core, () => startBackupJob(core, "automatic"));
  keepArchiveBounded(core, () => startBackupJob(core, "automatic"));
}
