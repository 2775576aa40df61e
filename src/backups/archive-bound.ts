/**
 * The WAL archive's bound (docs/decisions.md, "The archive is bounded": 145 MB of archive beside a
 * 16 MB database after one minute of heavy writing, no backup taken yet; on an SD card that is a
 * surprise).
 *
 * The limit is twice the database, and at least 64 MB: the archive is what lets a restore reach
 * any second after a backup, and a base copy (one database's worth) is what lets older frames
 * go, so the archive is kept within a small multiple of that copy. The floor keeps a small wiki
 * from taking a base every few megabytes (64 MB is a few hours of ordinary editing).
 *
 * Within it: a new base (an `automatic` backup) is taken once a quarter of the limit has been
 * archived since the newest backup, and pruning keeps the frames after the backups whose restore
 * needs at most half of it. So the archive stays under the limit (half of it, plus what is
 * written while the next base is noticed and taken), and the point in time always reaches back
 * at least a quarter of the limit's worth of writing. Older backups stay as retention says;
 * only moments between them are no longer reachable.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Core } from "../core";
import { coverage, planReplay } from "../platform/backup/replay";
import { segmentFiles, totalBytes } from "../platform/backup/wal-size";
import { iso } from "../platform/clock";
import type { WalPosition } from "../platform/backup/types";
import { LABEL_PATTERN, type BackupKind } from "./manifest";
import { listManifests, readManifestIn } from "./store";
import { ARCHIVE_FLOOR_BYTES } from "../common/limits";

export { ARCHIVE_FLOOR_BYTES };
export const ARCHIVE_DB_RATIO = 2;

const dbBytes = (core: Core) => statSync(core.data.dbPath, { throwIfNoEntry: false })?.size ?? 0;

/** max(2 × the database file, 64 MB). */
export const archiveLimit = (core: Core) => Math.max(ARCHIVE_DB_RATIO * dbBytes(core), ARCHIVE_FLOOR_BYTES);
/** Archived since the newest backup past this: time for a new base. */
export const baseEvery = (limit: number) => limit / 4;
/** A backup whose restore needs more of the archive than this no longer has its frames kept. */
export const keepBudget = (limit: number) => limit / 2;

interface Kept {
  kind: BackupKind;
  wal: WalPosition | null;
}
const cache = new WeakMap<Core, Map<string, { mtimeMs: number; kept: Kept | null }>>();

/**
 * The retained backups' kinds and positions, for the timer that looks every few seconds: a
 * manifest is read again only when its file changed (a manifest can name thousands of files;
 * reading them all every few seconds would cost more than the archive check itself).
 */
export function retainedPositions(core: Core): Kept[] {
  const dir = core.data.backupsDir;
  const seen = cache.get(core) ?? new Map();
  cache.set(core, seen);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: Kept[] = [];
  const present = new Set<string>();
  for (const name of names) {
    if (!LABEL_PATTERN.test(name)) continue;
    const mtimeMs = statSync(join(dir, name, "manifest.json"), { throwIfNoEntry: false })?.mtimeMs;
    if (mtimeMs === undefined) continue;
    present.add(name);
    let entry = seen.get(name);
    if (!entry || entry.mtimeMs !== mtimeMs) {
      const m = readManifestIn(dir, name);
      entry = { mtimeMs, kept: m && !m.removedAt ? { kind: m.kind, wal: m.wal } : null };
      seen.set(name, entry);
    }
    if (entry.kept) out.push(entry.kept);
  }
  for (const name of seen.keys()) if (!present.has(name)) seen.delete(name);
  return out;
}

/** What the Backups screen shows of the archive: its size, its limit, and how far back a restore reaches. */
export function archiveStatus(core: Core) {
  const limit = archiveLimit(core);
  const wal = core.wal;
  const bytes = wal ? totalBytes(segmentFiles(wal.dir)) : 0;
  return { bytes, limitBytes: limit, databaseBytes: dbBytes(core), oldestRestorableAt: wal ? oldestRestorable(core, wal.dir) : null };
}

/**
 * The earliest moment a restore can reach: the oldest retained backup from which the archive
 * still replays continuously (planReplay checks it, reading its generation's indexes).
 */
function oldestRestorable(core: Core, archiveDir: string): string | null {
  const spans = new Map(coverage(archiveDir).map((s) => [s.generation, s]));
  const bases = listManifests(core)
    .flatMap((m) => (m.wal && spans.has(m.wal.generation) ? [m.wal] : []))
    .sort((a, b) => a.committedAt - b.committedAt);
  for (const base of bases) {
    try {
      // The instance's clock, not the process's: commits are stamped by it (a test's runs ahead).
      planReplay(archiveDir, base, Math.min(spans.get(base.generation)!.to, core.clock.now()));
      return iso(base.committedAt);
    } catch {
      // Its frames were pruned (or its generation ended unreadable): the next one.
    }
  }
  return null;
}
