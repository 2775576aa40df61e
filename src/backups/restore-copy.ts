/**
 * The restored state, materialised as a file in tmp/: the backup's cairn.db copied (async file
 * I/O: the event loop keeps going), or for a point in time, the backup plus the archived WAL
 * replayed up to `at` (platform/backup/replay.ts). Kept a few minutes per (label, at), so the
 * preview, the test and the restore that follow one another copy once.
 *
 * Ownership: a preview borrows a kept copy; a test or a restore takes it (no one else reads a
 * copy that is being migrated or swapped in), and a test that passed gives it back marked
 * checked, so the restore right after needs no second run of the checks.
 */
import { mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Core } from "../core";
import { newId } from "../platform/crypto";
import { PRIVATE_DIR } from "../platform/datadir";
import { AppError } from "../platform/errors";
import { perInstance } from "../platform/memo";
import { planReplay, restoreToTime } from "../platform/backup/replay";
import { NotCoveredError } from "../platform/backup/types";
import type { BackupManifest } from "./manifest";
import type { CheckReport } from "./restore-test";
import { backupDbPath, readManifest } from "./store";

export interface RestoredCopy {
  key: string;
  label: string;
  at: number | null;
  path: string;
  bytes: number;
  /** The last commit replayed (a point in time), else null. */
  lastCommitAt: number | null;
  /** The checks' report once they passed on this very file. */
  checked: CheckReport | null;
}

const KEEP_MS = 10 * 60_000;

interface Kept {
  copy: RestoredCopy;
  timer: ReturnType<typeof setTimeout>;
}

const kept = perInstance((core: Core) => {
  const map = new Map<string, Kept>();
  core.onClose(() => {
    for (const k of map.values()) clearTimeout(k.timer);
    map.clear();
  });
  return map;
});

const keyOf = (label: string, at: number | null) => `${label}|${at ?? ""}`;

/** The manifest of a backup that can be restored: listed, not removed. 404 backup_not_found otherwise. */
export function restorableManifest(core: Core, label: string): BackupManifest {
  const m = readManifest(core, label);
  if (!m || m.removedAt)
    throw new AppError("backup_not_found", {
      extra: { label },
      detail: `There is no backup labelled ${label} to restore (see GET /api/admin/backups).`,
    });
  return m;
}

const uncovered = (err: NotCoveredError) => new AppError("not_covered", { field: "at", detail: `at: ${err.message}` });

/**
 * 409 not_covered when `at` is before the backup, past what the archive after it holds, or
 * across a gap: the same plan a copy would follow, read from the archive's index alone (no
 * frame is read). A restore asks before it starts its job, so the answer comes at once instead
 * of after a safety backup taken under maintenance.
 */
export function refuseUncovered(core: Core, manifest: BackupManifest, at: number | null): void {
  if (at === null) return;
  if (Date.parse(manifest.createdAt) > at)
    throw new AppError("not_covered", {
      field: "at",
      detail: `at: the backup ${manifest.label} was taken after that time; choose an earlier backup.`,
    });
  try {
    planReplay(join(core.data.backupsDir, "wal"), manifest.wal, at);
  } catch (err) {
    throw err instanceof NotCoveredError ? uncovered(err) : err;
  }
}

export function discardCopy(copy: RestoredCopy): void {
  rmSync(join(copy.path, ".."), { recursive: true, force: true });
}

/** Keeps a copy for KEEP_MS (replacing any other of the same key), then removes it. */
export function keepCopy(core: Core, copy: RestoredCopy): void {
  const map = kept(core);
  const old = map.get(copy.key);
  if (old && old.copy !== copy) {
    clearTimeout(old.timer);
    discardCopy(old.copy);
  }
  const timer = setTimeout(() => {
    map.delete(copy.key);
    discardCopy(copy);
  }, KEEP_MS);
  timer.unref();
  map.set(copy.key, { copy, timer });
}

/** Takes a kept copy out of the cache (the caller owns it now), or null. */
function takeKept(core: Core, key: string): RestoredCopy | null {
  const map = kept(core);
  const k = map.get(key);
  if (!k) return null;
  clearTimeout(k.timer);
  map.delete(key);
  return k.copy;
}

/**
 * The restored state of `label` at `at` (null: the backup itself). `take`: the caller owns the
 * copy (and discards or keeps it); otherwise it stays kept and must only be read.
 */
export async function restoredCopy(
  core: Core,
  label: string,
  at: number | null,
  opts: { take: boolean; signal?: AbortSignal; onProgress?: (done: number, total: number) => void },
): Promise<RestoredCopy> {
  const manifest = restorableManifest(core, label);
  const key = keyOf(label, at);
  const found = opts.take ? takeKept(core, key) : (kept(core).get(key)?.copy ?? null);
  if (found) return found;
  const dir = join(core.data.tmpDir, `restore-${newId()}`);
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  const path = join(dir, "cairn.db");
  let lastCommitAt: number | null = null;
  try {
    if (at === null) {
      await Bun.write(path, Bun.file(backupDbPath(core, label)));
    } else {
      lastCommitAt = await replayTo(core, manifest, at, path, opts);
    }
    opts.signal?.throwIfAborted();
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    if (err instanceof NotCoveredError) throw uncovered(err);
    throw err;
  }
  const copy: RestoredCopy = { key, label, at, path, bytes: statSync(path).size, lastCommitAt, checked: null };
  if (!opts.take) keepCopy(core, copy);
  return copy;
}

async function replayTo(
  core: Core,
  manifest: BackupManifest,
  at: number,
  out: string,
  opts: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void },
): Promise<number | null> {
  if (Date.parse(manifest.createdAt) > at)
    throw new AppError("not_covered", {
      field: "at",
      detail: `at: the backup ${manifest.label} was taken after that time; choose an earlier backup.`,
    });
  const result = await restoreToTime({
    archiveDir: join(core.data.backupsDir, "wal"),
    base: backupDbPath(core, manifest.label),
    basePosition: manifest.wal,
    at,
    out,
    onProgress: opts.onProgress,
    signal: opts.signal,
  });
  return result.lastCommitAt;
}
