/**
 * Copying backups off the machine: every retained backup's cairn.db and manifest.json, and the
 * blobs its manifest's `files` names, to a target (target-storage.ts). Layout on the target:
 *
 *   backups/<label>/cairn.db, backups/<label>/manifest.json   (the manifest after the rest)
 *   files/ab/cdef…                                            (blobs, by hash, as in files/)
 *   cairn-index.json                                          (what this target holds)
 *
 * Incremental: the index records each object's SHA-256 and size as it lands; an object whose
 * index entry matches and which the target still holds at that size is skipped. Resumable:
 * every object is written whole (target-storage.ts), the index is saved after every large
 * object and about once a second otherwise (less often when saving it takes long), and once more
 * however the copy ends (done, failed, cancelled), so a copy stopped half-way
 * continues with what is missing; after a crash only the objects since the last save go again.
 * A backup's manifest goes after its database and files: a manifest on the target means its
 * backup is complete there. Nothing is deleted from the target (an off-site copy outlives the
 * local one on purpose).
 */
import { readFile, stat } from "node:fs/promises";
import { sha256Hex } from "../platform/crypto";
import { blobKey, INDEX_KEY, type TargetStorage } from "./target-storage";

export interface BackupSource {
  label: string;
  dbPath: string;
  manifestPath: string;
  /** cairn.db's hash and size, as its manifest records them. */
  sha256: string;
  bytes: number;
  files: string[];
}

export interface CopySummary {
  /** Backups whose copy on the target is complete. */
  backups: number;
  /** Objects copied this time, and skipped because the target already had them. */
  copied: number;
  skipped: number;
  bytes: number;
  /** Blobs a manifest names that this instance's file store lacks (their backups are copied without them). */
  missingFiles: string[];
}

export interface CopyReport {
  report(phase: string, done?: number, total?: number): void;
  signal: AbortSignal;
}

interface IndexEntry {
  sha256: string;
  size: number;
}

interface TargetIndex {
  format: 1;
  objects: Record<string, IndexEntry>;
}

interface PlannedObject extends IndexEntry {
  key: string;
  /** A local file, or bytes read now (a manifest). */
  path?: string;
  bytes?: Uint8Array;
}

const FLUSH_EVERY_MS = 1000;
const LARGE = 1024 * 1024;

async function readIndex(storage: TargetStorage): Promise<TargetIndex> {
  const bytes = await storage.getBytes(INDEX_KEY);
  if (!bytes) return { format: 1, objects: {} };
  try {
    const value = JSON.parse(new TextDecoder().decode(bytes)) as TargetIndex;
    if (value.format === 1 && value.objects && typeof value.objects === "object") return value;
  } catch {
    // A damaged index: everything is compared afresh (and copied again).
  }
  return { format: 1, objects: {} };
}

async function plan(backups: BackupSource[], blobPath: (sha256: string) => string, missing: string[]): Promise<PlannedObject[]> {
  const objects: PlannedObject[] = [];
  const seen = new Set<string>();
  // Oldest first: the backups most at risk of being the only copy are sent first.
  for (const b of [...backups].sort((x, y) => x.label.localeCompare(y.label))) {
    for (const sha of b.files) {
      if (seen.has(sha)) continue;
      seen.add(sha);
      const s = await stat(blobPath(sha)).catch(() => null);
      if (!s) missing.push(sha);
      else objects.push({ key: blobKey(sha), sha256: sha, size: s.size, path: blobPath(sha) });
    }
    objects.push({ key: `backups/${b.label}/cairn.db`, sha256: b.sha256, size: b.bytes, path: b.dbPath });
    const manifest = new Uint8Array(await readFile(b.manifestPath));
    objects.push({ key: `backups/${b.label}/manifest.json`, sha256: sha256Hex(manifest), size: manifest.byteLength, bytes: manifest });
  }
  return objects;
}

export async function copyBackups(
  storage: TargetStorage,
  backups: BackupSource[],
  blobPath: (sha256: string) => string,
  job: CopyReport,
): Promise<CopySummary> {
  job.report("comparing");
  const missingFiles: string[] = [];
  const objects = await plan(backups, blobPath, missingFiles);
  const index = await readIndex(storage);
  const present = await storage.sizes(objects.map((o) => o.key));
  const has = (o: PlannedObject) => {
    const known = index.objects[o.key];
    return known?.sha256 === o.sha256 && known.size === o.size && present.get(o.key) === o.size;
  };
  const todo = objects.filter((o) => !has(o));
  const total = todo.reduce((n, o) => n + o.size, 0);
  let done = 0;
  let dirty = false;
  let flushedAt = Date.now();
  let flushEvery = FLUSH_EVERY_MS;
  const flush = async () => {
    const started = Date.now();
    await storage.putBytes(INDEX_KEY, new TextEncoder().encode(JSON.stringify(index)));
    dirty = false;
    flushedAt = Date.now();
    // A large index on a slow target: saving it takes at most a twentieth of the copy's time.
    flushEvery = Math.max(FLUSH_EVERY_MS, 20 * (flushedAt - started));
  };
  job.report("copying", 0, total);
  try {
    for (const o of todo) {
      if (job.signal.aborted) throw job.signal.reason ?? new Error("aborted");
      if (o.path) {
        const before = done;
        await storage.putFile(o.key, o.path, {
          sha256: o.sha256,
          signal: job.signal,
          onBytes: (n) => {
            done += n;
            job.report("copying", done, total);
          },
        });
        done = before + o.size;
      } else {
        await storage.putBytes(o.key, o.bytes!);
        done += o.size;
      }
      index.objects[o.key] = { sha256: o.sha256, size: o.size };
      dirty = true;
      job.report("copying", done, total);
      if (o.size >= LARGE || Date.now() - flushedAt >= flushEvery) await flush();
    }
  } finally {
    // However the copy ends, the target's index says what landed, so the next copy resumes.
    if (dirty) await flush().catch(() => {});
  }
  if (dirty) await flush();
  return { backups: backups.length, copied: todo.length, skipped: objects.length - todo.length, bytes: total, missingFiles };
}
