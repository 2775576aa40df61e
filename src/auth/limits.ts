import type { Core } from "../core";
import type { Clock } from "../platform/clock";
import { perInstance } from "../platform/memo";
import { RateLimiter } from "../platform/rate-limit";

/**
 * Wrong passwords per client address, in fixed windows kept in memory. Only failures count:
 * behind one NAT or an untrusted proxy a whole team shares an address, and their successful
 * sign-ins must not use up each other's budget. Checked before any password is, so it also
 * bounds the argon2 work one address can cause.
 */
export class FailureWindows {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(
    private clock: Clock,
    private windowMs: number,
  ) {}

  /** Seconds until key may try again, when it already has `limit` failures in this window. */
  wait(key: string, limit: number): number | null {
    const now = this.clock.now();
    const w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs || w.count < limit) return null;
    return Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
  }

  fail(key: string): void {
    const now = this.clock.now();
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      if (this.windows.size > 50_000) this.sweep(now);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count++;
  }

  private sweep(now: number) {
    for (const [key, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(key);
  }
}

/** The in-memory limiters of one running instance (kept per core so tests do not share them). */
export const limiters = perInstance((core: Core) => ({
  anonymous: new RateLimiter(core.clock, 60_000),
  /** Wrong passwords (sign-in, re-authentication, password change) per address: loginRateLimitPerMinute. */
  passwordFailures: new FailureWindows(core.clock, 60_000),
}));
