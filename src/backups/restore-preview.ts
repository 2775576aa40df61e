/**
 * GET /api/admin/backups/{label}/restore-preview?at=: what a restore would lose, counted as the
 * rows the live data has and the restored copy lacks (by key), and the disk space it needs.
 * The counting reads both databases whole, so it runs in a child process (restore-child.ts).
 */
import { statfsSync, statSync } from "node:fs";
import type { Core } from "../core";
import { requireUser, type Caller } from "../identity/caller";
import { requireRight } from "../identity/rights";
import { iso } from "../platform/clock";
import { restoredCopy, restorableManifest } from "./restore-copy";
import { runInChild, type Losses } from "./restore-child";

const sizeOf = (path: string) => statSync(path, { throwIfNoEntry: false })?.size ?? 0;

/** Free bytes where the data directory lives (null where statfs fails). */
export function freeBytes(core: Core): number | null {
  try {
    const s = statfsSync(core.data.root);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}

/**
 * The space a restore needs on top of what is there: the safety copy of the live database, the
 * restored copy in tmp/, and the WAL the swap writes (about the restored size again, folded at
 * the next checkpoint).
 */
export function diskNeeds(core: Core, restoredBytes: number) {
  const liveBytes = sizeOf(core.data.dbPath) + sizeOf(`${core.data.dbPath}-wal`);
  const needed = liveBytes + 2 * restoredBytes;
  const free = freeBytes(core);
  return { restoredBytes, safetyBytes: liveBytes, neededBytes: needed, freeBytes: free, enough: free === null ? null : free >= needed };
}

/** Parses `at` (ISO 8601 with a zone, or ms since the epoch); null when absent. */
export function parseAt(text: string | undefined | null): number | null | "invalid" {
  if (text === undefined || text === null || text === "") return null;
  const ms = /^\d{1,15}$/.test(text) ? Number(text) : /[zZ]|[+-]\d{2}:?\d{2}$/.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isFinite(ms) ? ms : "invalid";
}

export async function previewRestore(core: Core, caller: Caller, label: string, at: number | null) {
  requireRight(requireUser(caller), "backups.manage");
  const manifest = restorableManifest(core, label);
  const copy = await restoredCopy(core, label, at, { take: false });
  const lost = await runInChild<Losses>(["preview", core.data.dbPath, copy.path]);
  return {
    label,
    at: at === null ? null : iso(at),
    lastCommitAt: copy.lastCommitAt === null ? null : iso(copy.lastCommitAt),
    backup: { createdAt: manifest.createdAt, kind: manifest.kind, counts: manifest.counts },
    lost,
    disk: diskNeeds(core, copy.bytes),
  };
}
