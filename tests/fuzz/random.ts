/**
 * A seeded PRNG (mulberry32): the same seed picks the same requests on every run and machine,
 * so a failure found once is found again, and a list of failures can be compared between runs.
 */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  int(below: number): number;
  pick<T>(items: readonly T[]): T;
  /** `count` distinct items, in the order they came (all of them if there are fewer). */
  sample<T>(items: readonly T[], count: number): T[];
}

export function rng(seed: number): Rng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  return {
    next,
    int,
    pick: (items) => items[int(items.length)],
    sample(items, count) {
      if (count >= items.length) return [...items];
      const chosen = new Set<number>();
      while (chosen.size < count) chosen.add(int(items.length));
      return [...chosen].sort((a, b) => a - b).map((i) => items[i]);
    },
  };
}
