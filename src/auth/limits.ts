import type { Core } from "../core";
import { RateLimiter } from "../platform/rate-limit";

/** The in-memory limiters of one running instance (kept per core so tests do not share them). */
export interface Limiters {
  anonymous: RateLimiter;
  login: RateLimiter;
}

const byCore = new WeakMap<Core, Limiters>();

export function limiters(core: Core): Limiters {
  let l = byCore.get(core);
  if (!l) {
    l = { anonymous: new RateLimiter(core.clock, 60_000), login: new RateLimiter(core.clock, 60_000) };
    byCore.set(core, l);
  }
  return l;
}
