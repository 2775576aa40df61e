/**
 * How much disk the WAL archive takes, and which backups' positions it can keep within a budget
 * (docs/decisions.md, "The archive is bounded": 145 MB of archive beside a 16 MB database after a
 * minute of heavy writing). Read from the segment files' names and sizes alone (a readdir and a
 * stat each, no index parsed), so a timer can look every few seconds.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { WalPosition } from "./types";
import { generationsOf } from "./wal-coverage";

export interface SegmentFile {
  generation: string;
  epoch: number;
  first: number;
  /** The first frame of the next segment of the same epoch; Infinity for the epoch's last one. */
  next: number;
  /** .frames and .idx together. */
  bytes: number;
}

const SEGMENT = /^(\d{6})-(\d{10})\.(frames|idx)$/;

/** Every segment of the archive, in order (generation, epoch, first frame). */
export function segmentFiles(archiveDir: string): SegmentFile[] {
  const out: SegmentFile[] = [];
  for (const generation of generationsOf(archiveDir)) {
    const dir = join(archiveDir, generation);
    const byName = new Map<string, SegmentFile>();
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue; // pruned meanwhile
    }
    for (const name of names) {
      const m = SEGMENT.exec(name);
      if (!m) continue;
      let bytes = 0;
      try {
        bytes = statSync(join(dir, name)).size;
      } catch {
        continue;
      }
      const key = `${m[1]}-${m[2]}`;
      const seg = byName.get(key) ?? { generation, epoch: Number(m[1]), first: Number(m[2]), next: Infinity, bytes: 0 };
      seg.bytes += bytes;
      byName.set(key, seg);
    }
    const segs = [...byName.values()].sort((a, b) => a.epoch - b.epoch || a.first - b.first);
    for (let i = 0; i + 1 < segs.length; i++) if (segs[i + 1].epoch === segs[i].epoch) segs[i].next = segs[i + 1].first;
    out.push(...segs);
  }
  return out;
}

export const totalBytes = (segs: readonly SegmentFile[]) => segs.reduce((n, s) => n + s.bytes, 0);

/** A segment a restore from `p` never reads: wholly before it (as wal-coverage.ts prunes them). */
const before = (s: SegmentFile, p: WalPosition) => s.epoch < p.epoch || (s.epoch === p.epoch && s.next - 1 <= p.frame);

/**
 * What the archive must hold for a restore from `p` to reach now: its generation's segments from
 * p on, and every later generation (they begin after it; generation names sort by time).
 */
export function bytesNeededFrom(segs: readonly SegmentFile[], p: WalPosition): number {
  let n = 0;
  for (const s of segs) if (s.generation > p.generation || (s.generation === p.generation && !before(s, p))) n += s.bytes;
  return n;
}

/**
 * The positions whose archive fits in `budget` bytes: the point in time then reaches back to the
 * oldest of them. The newest position is always kept (a base is what makes "now" restorable).
 */
export function positionsWithin(segs: readonly SegmentFile[], positions: readonly WalPosition[], budget: number): WalPosition[] {
  if (positions.length === 0) return [];
  const cost = positions.map((p) => ({ p, bytes: bytesNeededFrom(segs, p) }));
  const cheapest = cost.reduce((a, b) => (b.bytes < a.bytes || (b.bytes === a.bytes && newer(b.p, a.p)) ? b : a));
  return cost.filter((c) => c === cheapest || c.bytes <= budget).map((c) => c.p);
}

const newer = (a: WalPosition, b: WalPosition) =>
  a.generation > b.generation || (a.generation === b.generation && (a.epoch > b.epoch || (a.epoch === b.epoch && a.frame > b.frame)));
