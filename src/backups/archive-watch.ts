/**
 * The WAL archive's two watches, tasks of the scheduler: its size, and a base for each new
 * generation (below).
 *
 * Keeps the WAL archive within its limit (archive-bound.ts says why and how much): every few
 * seconds in which something was archived, a readdir and a stat per segment. A quarter of the
 * limit archived since the newest backup starts an `automatic` backup (its retention then prunes
 * behind it); an archive past the limit with no new base to take (backups not in use) is pruned to
 * what the live log needs.
 */
import type { Core } from "../core";
import { segmentFiles, totalBytes, bytesNeededFrom } from "../platform/backup/wal-size";
import { archiveLimit, baseEvery, retainedPositions } from "./archive-bound";
import { runningJob } from "./jobs";
import { readPolicy } from "./policy";
import { pruneWalArchive } from "./retention";
import { listManifests } from "./store";

/** Under heavy writing (~2.5 MB/s of log) a few seconds is a few MB past the mark. */
export const ARCHIVE_CHECK_MS = 3_000;

export type BoundAction = "none" | "base" | "prune";

export function checkArchiveBound(core: Core, startBase: () => void): BoundAction {
  const wal = core.wal;
  if (!wal || core.maintenance.active() || runningJob(core, "backup")) return "none";
  const limit = archiveLimit(core);
  const segs = segmentFiles(wal.dir);
  const total = totalBytes(segs);
  if (total <= baseEvery(limit)) return "none";
  const kept = retainedPositions(core);
  const generation = wal.position().generation;
  const bases = kept.flatMap((k) => (k.wal?.generation === generation ? [k.wal] : []));
  const since = bases.length
    ? Math.min(...bases.map((p) => bytesNeededFrom(segs, p)))
    : totalBytes(segs.filter((s) => s.generation >= generation));
  // Backups are in use once one is kept or the schedule will take one: then a base is what the
  // owner would want; with neither, the frames have nothing to be replayed onto.
  if (since > baseEvery(limit) && (kept.length > 0 || readPolicy(core).schedule !== null)) {
    try {
      startBase();
      return "base";
    } catch (err) {
      core.log.warn("automatic backup for the WAL archive's size not started", { error: (err as Error).message });
    }
  }
  if (total > limit) {
    pruneWalArchive(core);
    return "prune";
  }
  return "none";
}

/** The server's watch; stops at close, or when the function it answers is called. */
export function keepArchiveBounded(core: Core, startBase: () => void, everyMs = ARCHIVE_CHECK_MS): () => void {
  const wal = core.wal;
  if (!wal) return () => {};
  // Nothing archived since the last look, nothing to look at: an idle server reads no directory.
  let seen = "";
  const task = core.scheduler.every("backups.archive-size", everyMs, () => {
    const p = wal.position();
    const now = `${p.generation}/${p.epoch}/${p.frame}`;
    if (now === seen) return;
    seen = now;
    checkArchiveBound(core, startBase);
  });
  return task.stop;
}

/** How often the archive's generation is compared with the backups' (a few file reads). */
const GENERATION_CHECK_MS = 60_000;

/**
 * Point-in-time restore replays the WAL archive onto a backup of the same generation. A new
 * generation begins whenever continuity is lost (an upgrade, an unclean stop, another process
 * folding the log): until a backup is taken in it, no moment after its start can be restored.
 * So, as Litestream takes a snapshot at each new generation, an `automatic` backup is taken as
 * soon as the current generation has none (at start and then every minute), once backups are in
 * use: some backup is kept. Before the first backup there is no moment to go back to anyway
 * (restores reach back to the oldest backup), and a new instance gets no backup it did not ask
 * for. Retention treats it like a scheduled one.
 */
export function keepGenerationCovered(core: Core, start: () => void): void {
  const wal = core.wal;
  if (!wal) return;
  const check = () => {
    if (core.maintenance.active() || runningJob(core, "backup")) return;
    const generation = wal.position().generation;
    const kept = listManifests(core);
    if (kept.length === 0 || kept.some((m) => m.wal?.generation === generation)) return;
    try {
      start();
    } catch (err) {
      core.log.warn("automatic backup for the new WAL generation not started", { error: (err as Error).message });
    }
  };
  check();
  core.scheduler.every("backups.generation-base", GENERATION_CHECK_MS, check);
}
