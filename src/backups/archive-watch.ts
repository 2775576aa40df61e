/**
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
  const since = bases.length ? Math.min(...bases.map((p) => bytesNeededFrom(segs, p))) : totalBytes(segs.filter((s) => s.generation >= generation));
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
  const timer = setInterval(() => {
    const p = wal.position();
    const now = `${p.generation}/${p.epoch}/${p.frame}`;
    if (now === seen) return;
    seen = now;
    try {
      checkArchiveBound(core, startBase);
    } catch (err) {
      core.log.error("WAL archive size check failed", { error: err instanceof Error ? err.message : String(err) });
    }
  }, everyMs);
  timer.unref?.();
  const stop = () => clearInterval(timer);
  core.onClose(stop);
  return stop;
}
