import type { Core } from "../core";
import { iso } from "../platform/clock";
import { perInstance } from "../platform/memo";
import type { WriteBehind } from "../platform/scheduler";
import { addTokenUses } from "./store/tokens";

/** How often the counts in memory are written. */
export const USAGE_FLUSH_MS = 5_000;

/**
 * Token use (lastUsedAt, useCount) is counted in memory and written in one transaction every
 * few seconds, on listing and at shutdown (the scheduler's write-behind): a write per API
 * request would cap throughput at the disk's fsync rate.
 */
export class UsageTracker {
  private counts: WriteBehind<string, { count: number; last: number }>;

  constructor(private core: Core) {
    this.counts = core.scheduler.writeBehind("tokens.usage", USAGE_FLUSH_MS, {
      merge: (old, added) => ({ count: old.count + added.count, last: Math.max(old.last, added.last) }),
      write: (batch) =>
        this.core.bookkeeping(() => {
          for (const [id, p] of batch) addTokenUses(this.core, id, p.count, iso(p.last));
        }),
    });
  }

  record(tokenId: string, at: number) {
    const p = this.counts.pending.get(tokenId);
    if (!p) return this.counts.add(tokenId, { count: 1, last: at });
    p.count++;
    p.last = Math.max(p.last, at);
  }

  flush() {
    this.counts.flush();
  }
}

export const usageTracker = perInstance((core: Core) => new UsageTracker(core));
