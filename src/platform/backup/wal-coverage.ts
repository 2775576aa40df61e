/**
 * What the WAL archive covers, and pruning what no retained backup needs.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { WalPosition } from "./types";
import { readArchiveState } from "./wal-state";
import { listSegments, type SegmentInfo } from "./wal-segments";

/** The last frame a segment holds that a restore may use (its last commit). */
export function segmentLast(seg: SegmentInfo): number {
  return seg.closed?.last ?? seg.commits.at(-1)?.frame ?? seg.first - 1;
}

export function generationsOf(archiveDir: string): string[] {
  if (!existsSync(archiveDir)) return [];
  return readdirSync(archiveDir)
    .filter((n) => n !== TRASH && statSync(join(archiveDir, n)).isDirectory())
    .sort();
}

/**
 * Per generation: from its first archived commit to its last one; the current generation (the
 * one a running or cleanly stopped server continues) to now, since nothing changed after its last
 * commit that it would not have archived.
 */
export function coverage(archiveDir: string): Array<{ generation: string; from: number; to: number }> {
  const current = readArchiveState(archiveDir)?.generation ?? null;
  const out: Array<{ generation: string; from: number; to: number }> = [];
  for (const generation of generationsOf(archiveDir)) {
    const commits = listSegments(join(archiveDir, generation)).flatMap((s) => s.commits);
    if (commits.length === 0 && generation !== current) continue;
    const from = commits[0]?.at ?? Date.now();
    const to = generation === current ? Math.max(Date.now(), commits.at(-1)?.at ?? 0) : commits.at(-1)!.at;
    out.push({ generation, from, to });
  }
  return out;
}

/**
 * Drops what no retained backup needs: a generation none of `keep` is in (but the current one),
 * and in the others the closed segments wholly before the earliest position kept. The current
 * generation keeps its latest epoch (a backup being taken now stands in it). Pass the position
 * of a backup being written in `keep` too.
 *
 * What goes is renamed into wal/.trash/ at once and deleted there in the background: unlinking
 * a hundred segments of up to 16 MB held the event loop ~200 ms at the end of a backup.
 */
export function pruneArchive(archiveDir: string, keep: WalPosition[]): void {
  let trashed = false;
  const trash = (path: string) => {
    if (!existsSync(path)) return;
    mkdirSync(join(archiveDir, TRASH), { recursive: true, mode: 0o700 });
    renameSync(path, join(archiveDir, TRASH, `${Date.now()}-${Buffer.from(crypto.getRandomValues(new Uint8Array(4))).toString("hex")}`));
    trashed = true;
  };
  try {
    pruneInto(archiveDir, keep, trash);
  } finally {
    if (trashed) void emptyTrash(archiveDir);
  }
}

const TRASH = ".trash";
const emptying = new Map<string, Promise<void>>();

/** Deletes what pruning set aside, one entry at a time, off the event loop. */
function emptyTrash(archiveDir: string): Promise<void> {
  const running = emptying.get(archiveDir);
  if (running) return running;
  const work = (async () => {
    try {
      const dir = join(archiveDir, TRASH);
      for (;;) {
        let names: string[];
        try {
          names = readdirSync(dir);
        } catch {
          return;
        }
        if (names.length === 0) return;
        for (const name of names) await rm(join(dir, name), { recursive: true, force: true }).catch(() => {});
      }
    } finally {
      emptying.delete(archiveDir);
    }
  })();
  emptying.set(archiveDir, work);
  return work;
}

function pruneInto(archiveDir: string, keep: WalPosition[], trash: (path: string) => void): void {
  const current = readArchiveState(archiveDir)?.generation ?? null;
  for (const generation of generationsOf(archiveDir)) {
    const genDir = join(archiveDir, generation);
    const kept = keep.filter((p) => p.generation === generation).sort((a, b) => a.epoch - b.epoch || a.frame - b.frame);
    if (kept.length === 0 && generation !== current) {
      trash(genDir);
      continue;
    }
    const segments = listSegments(genDir);
    const latestEpoch = Math.max(-1, ...segments.map((s) => s.epoch));
    const first = kept[0] ?? { epoch: latestEpoch, frame: 0 };
    for (const seg of segments) {
      if (!seg.closed) continue;
      const before = seg.epoch < first.epoch || (seg.epoch === first.epoch && segmentLast(seg) <= first.frame);
      if (!before) continue;
      trash(join(genDir, `${seg.name}.frames`));
      trash(join(genDir, `${seg.name}.idx`));
    }
  }
}
