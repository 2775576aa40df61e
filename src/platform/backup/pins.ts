/**
 * The blobs retained backups need: the blob store never deletes a file a retained backup names
 * (docs/decisions.md, "Blobs are never copied into a backup"). A backup's manifest lists the sha256
 * of every blob its copy refers to; blobs are shared with the live store, never copied. The file
 * store's deleters (attachments/blob-refs.ts) ask this before deleting, so attachments need not
 * know the backups domain.
 *
 * Read from the manifests on disk (backups/<label>/manifest.json), kept in memory while no
 * manifest changed (their names, sizes and modification times are the key).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

let kept: { dir: string; key: string; pins: ReadonlySet<string> } | null = null;
let copying = 0;

/**
 * While a backup is being copied its manifest does not exist yet, but its copy may already
 * name a blob a deletion is about to free: every deletion waits (the blob stays, and the next
 * start-up sweep removes it if nothing needs it by then). Answers the release.
 */
export function holdBlobDeletes(): () => void {
  copying++;
  let released = false;
  return () => {
    if (!released) (released = true), copying--;
  };
}

/** Whether a blob must stay for the backups' sake (a retained backup names it, or one is being copied). */
export function blobPinnedByBackups(backupsDir: string, sha256: string): boolean {
  return copying > 0 || retainedBackupBlobs(backupsDir).has(sha256);
}

function manifestPaths(backupsDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(backupsDir);
  } catch {
    return [];
  }
  // Folders starting with "." are being written (.partial-…): not a backup yet.
  return names.filter((n) => !n.startsWith(".") && n !== "wal" && n !== "state").map((n) => join(backupsDir, n, "manifest.json"));
}

/** Every sha256 named by a backup that is not removed. */
export function retainedBackupBlobs(backupsDir: string): ReadonlySet<string> {
  const stats: string[] = [];
  const paths: string[] = [];
  for (const path of manifestPaths(backupsDir)) {
    const s = statSync(path, { throwIfNoEntry: false });
    if (!s) continue;
    paths.push(path);
    stats.push(`${path}:${s.size}:${s.mtimeMs}`);
  }
  const key = stats.join("|");
  if (kept && kept.dir === backupsDir && kept.key === key) return kept.pins;
  const pins = new Set<string>();
  for (const path of paths) {
    try {
      const m = JSON.parse(readFileSync(path, "utf8")) as { removedAt?: string | null; files?: unknown };
      if (m.removedAt || !Array.isArray(m.files)) continue;
      for (const f of m.files) if (typeof f === "string") pins.add(f);
    } catch {
      // Unreadable: it pins nothing it cannot name (and listing does not show it either).
    }
  }
  kept = { dir: backupsDir, key, pins };
  return pins;
}
