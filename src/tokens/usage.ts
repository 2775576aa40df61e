import { eq } from "drizzle-orm";
import type { Core } from "../core";
import { iso } from "../platform/clock";
import { perInstance } from "../platform/memo";
import { useCountPlus } from "./store/tokens";
import { apiTokens } from "./tables";

/**
 * Token use (lastUsedAt, useCount) is counted in memory and written in one transaction every
 * few seconds, on listing and at shutdown: a write per API request would cap throughput at the
 * disk's fsync rate.
 */
export class UsageTracker {
  private pending = new Map<string, { count: number; last: number }>();
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private core: Core) {}

  record(tokenId: string, at: number) {
    const p = this.pending.get(tokenId);
    if (p) {
      p.count++;
      p.last = Math.max(p.last, at);
    } else {
      this.pending.set(tokenId, { count: 1, last: at });
    }
    this.timer ??= setInterval(() => this.flush(), 5_000);
  }

  flush() {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.core.bookkeeping(() => {
      for (const [id, p] of batch) {
        this.core.db
          .update(apiTokens)
          .set({ useCount: useCountPlus(p.count), lastUsedAt: iso(p.last) })
          .where(eq(apiTokens.id, id))
          .run();
      }
    });
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.flush();
  }
}

export const usageTracker = perInstance((core: Core) => {
  const tracker = new UsageTracker(core);
  core.onClose(() => tracker.stop());
  return tracker;
});
