import type { Core } from "../core";
import { perInstance } from "../platform/memo";
import { RateLimiter } from "../platform/rate-limit";

/** The in-memory limiters of one running instance (kept per core so tests do not share them). */
export const limiters = perInstance((core: Core) => ({
  anonymous: new RateLimiter(core.clock, 60_000),
  /**
   * Wrong passwords (sign-in, re-authentication, password change) per address:
   * loginRateLimitPerMinute. Only failures count: behind one NAT or an untrusted proxy a whole
   * team shares an address, and their sign-ins must not use up each other's budget. Checked
   * (wait) before any password is, so it also bounds the argon2 work one address can cause.
   */
  passwordFailures: new RateLimiter(core.clock, 60_000),
}));
