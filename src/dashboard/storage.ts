import { readdirSync, statfsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Core } from "../core";
import { perInstance } from "../platform/memo";

/** A directory walk is kept this long: the file store changes slowly and can hold many files. */
export const WALK_KEPT_MS = 5 * 60_000;

const sizeOf = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/** Bytes of every file under `dir` (0 when it does not exist). */
export function directoryBytes(dir: string): number {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += directoryBytes(path);
    else if (entry.isFile()) total += sizeOf(path);
  }
  return total;
}

/** The database as it stands on disk: the file, its write-ahead log and shared memory. */
export function databaseBytes(core: Core): number {
  const path = core.data.dbPath;
  return sizeOf(path) + sizeOf(`${path}-wal`) + sizeOf(`${path}-shm`);
}

/** Free and total bytes of the file system holding the data directory; null where statfs fails. */
export function diskSpace(core: Core): { freeBytes: number; totalBytes: number } | null {
  try {
    const s = statfsSync(core.data.root);
    return { freeBytes: Number(s.bavail) * Number(s.bsize), totalBytes: Number(s.blocks) * Number(s.bsize) };
  } catch {
    return null;
  }
}

interface Walked {
  filesBytes: number;
  backupsBytes: number;
  measuredAt: number;
}

const kept = perInstance((_core: Core) => ({ value: null as Walked | null }));

/**
 * The file store's and the backups folder's bytes, walked at most every five minutes (a walk of
 * a large file store is the dashboard's one slow part; the answer says when it was measured).
 */
export function directorySizes(core: Core): Walked {
  const slot = kept(core);
  const now = core.clock.now();
  if (slot.value && now - slot.value.measuredAt < WALK_KEPT_MS) return slot.value;
  slot.value = { filesBytes: directoryBytes(core.data.filesDir), backupsBytes: directoryBytes(core.data.backupsDir), measuredAt: now };
  return slot.value;
}
