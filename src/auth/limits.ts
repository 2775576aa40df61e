import type { Core } from "../core";
import { perInstance } from "../platform/memo";
import { RateLimiter } from "../platform/rate-limit";

/** The in-memory limiters of one running instance (kept per core so tests do not share them). */
export const limiters = perInstance((core: Core) => ({
  anonymous: new RateLimiter(core.clock, 60_000),
  login: new RateLimiter(core.clock, 60_000),
}));
