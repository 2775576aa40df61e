import type { Clock } from "./clock";

/**
 * Fixed-window counters kept in memory (one process is the product: docs/architecture.md).
 * hit() counts one request against key and says whether it is within limit; wait() and
 * count() let a caller check before it counts (sign-in counts only failures).
 */
export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(
    private clock: Clock,
    private windowMs: number,
  ) {}

  hit(key: string, limit: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const w = this.count(key);
    if (w.count <= limit) return { ok: true };
    return { ok: false, retryAfterSeconds: this.secondsLeft(w, this.clock.now()) };
  }

  /** Seconds until key may go on, when it already has `limit` in this window; null if it may now. */
  wait(key: string, limit: number): number | null {
    const now = this.clock.now();
    const w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs || w.count < limit) return null;
    return this.secondsLeft(w, now);
  }

  /** Counts one against key in the current window. */
  count(key: string): { start: number; count: number } {
    const now = this.clock.now();
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      if (this.windows.size > 50_000) this.sweep(now);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count++;
    return w;
  }

  private secondsLeft(w: { start: number }, now: number): number {
    return Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
  }

  private sweep(now: number) {
    for (const [key, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(key);
  }
}
