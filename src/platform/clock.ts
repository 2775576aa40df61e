/**
 * The one source of "now". Tests drive it (rate limits, lockouts, expiry) instead of sleeping.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export class ManualClock implements Clock {
  constructor(private t = Date.parse("2026-01-01T00:00:00Z")) {}
  now() {
    return this.t;
  }
  advance(ms: number) {
    this.t += ms;
  }
}

export const iso = (ms: number) => new Date(ms).toISOString();
