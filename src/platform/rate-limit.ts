import type { Clock } from "./clock";

/**
 * Fixed-window counters kept in memory (one process is the product, DESIGN.md §9).
 * hit() counts one request against key and says whether it is within limit.
 */
export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(
    private clock: Clock,
    private windowMs: number,
  ) {}

  hit(key: string, limit: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const now = this.clock.now();
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      if (this.windows.size > 50_000) this.sweep(now);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count++;
    if (w.count <= limit) return { ok: true };
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000)) };
  }

  private sweep(now: number) {
    for (const [key, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(key);
  }
}
