/**
 * Retention (docs/decisions.md, "Retention"): a backup goes only when it is outside BOTH limits:
 * not among the newest `keepCount` and older than `keepDays`. Only scheduled and automatic backups
 * are managed: manual, pre-migration and safety backups stay until removed by hand, and they do not
 * count towards keepCount (taking one by hand never pushes a scheduled one out).
 */
import type { Core } from "../core";
import { deleteUnusedBlobs } from "../attachments/blob-refs";
import { recordEvent } from "../events/outbox";
import { pruneArchive } from "../platform/backup/replay";
import { positionsWithin, segmentFiles } from "../platform/backup/wal-size";
import { archiveLimit, keepBudget } from "./archive-bound";
import { KEPT_BY_HAND, type BackupManifest } from "./manifest";
import { readPolicy, type BackupPolicy } from "./policy";
import { listManifests, markRemoved } from "./store";

const DAY_MS = 86_400_000;

/** The backups this policy would remove now, newest first. Pure: the preview and the removal share it. */
export function planRetention(
  retained: readonly BackupManifest[],
  policy: Pick<BackupPolicy, "enabled" | "keepCount" | "keepDays">,
  now: number,
): BackupManifest[] {
  if (!policy.enabled) return [];
  const managed = retained
    .filter((m) => !m.removedAt && !KEPT_BY_HAND.includes(m.kind))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.label.localeCompare(a.label));
  const cutoff = now - policy.keepDays * DAY_MS;
  return managed.filter((m, i) => i >= policy.keepCount && Date.parse(m.createdAt) < cutoff);
}

/** What the policy would remove now (the preview: nothing is removed). */
export function previewRetention(core: Core, policy: Pick<BackupPolicy, "enabled" | "keepCount" | "keepDays">): BackupManifest[] {
  return planRetention(listManifests(core), policy, core.clock.now());
}

/**
 * After each backup: removes what the stored policy says (each audited, actor null), then lets
 * the WAL archive drop what no retained backup needs. A failure here never fails the backup.
 */
export function applyRetention(core: Core): BackupManifest[] {
  const removed: BackupManifest[] = [];
  for (const m of previewRetention(core, readPolicy(core))) if (removeManaged(core, m)) removed.push(m);
  return [...removed, ...pruneWalArchive(core)];
}

/** Removes a managed backup (reason retention), audited; false when it was gone already or failed. */
function removeManaged(core: Core, m: BackupManifest): boolean {
  try {
    if (!markRemoved(core, m.label, "retention")) return false;
    core.tx(() => {
      recordEvent(core, {
        type: "backup.removed",
        targetType: "backup",
        targetId: m.label,
        spaceId: null,
        actorId: null,
        ip: null,
        data: { kind: m.kind, reason: "retention" },
      });
      deleteUnusedBlobs(core, m.files);
    });
    return true;
  } catch (err) {
    core.log.error("backup retention: removal failed", { label: m.label, error: err instanceof Error ? err.message : String(err) });
    return false;
  }
}

/**
 * The archive keeps the frames after the retained backups whose restore needs at most half its
 * limit (archive-bound.ts), and nothing older; with no such backup, only what the live log
 * needs. An `automatic` backup the archive no longer reaches back to goes with its frames: it
 * was taken only to be a base (of a new generation, or for the archive's size), and under
 * heavy writing one is taken every quarter of the limit. Answers the backups removed.
 */
export function pruneWalArchive(core: Core): BackupManifest[] {
  const archive = core.wal;
  if (!archive) return [];
  const removed: BackupManifest[] = [];
  try {
    const retained = listManifests(core).filter((m) => m.wal);
    const kept = positionsWithin(
      segmentFiles(archive.dir),
      retained.map((m) => m.wal!),
      keepBudget(archiveLimit(core)),
    );
    pruneArchive(archive.dir, kept);
    for (const m of retained) if (m.kind === "automatic" && !kept.includes(m.wal!) && removeManaged(core, m)) removed.push(m);
  } catch (err) {
    core.log.error("WAL archive prune failed", { error: err instanceof Error ? err.message : String(err) });
  }
  return removed;
}
