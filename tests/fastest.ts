/**
 * A bound on how long something takes, robust on a loaded machine: the fastest of a few tries.
 * The suite runs several test files at once on few cores, so one try can lose the processor for
 * longer than the bound for reasons outside the code under test; work that is really slow (a
 * decode that should not happen, a wait on a lock) is slow every time, so its fastest try still
 * fails the bound.
 */
export async function fastestOf(tries: number, work: () => unknown): Promise<number> {
  let fastest = Infinity;
  for (let i = 0; i < tries; i++) {
    const started = performance.now();
    await work();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

/**
 * The same for synchronous work (a test that must not yield between its steps). With `enough`,
 * it stops at the first try faster than that (for work that takes long even when all is well).
 */
export function fastestOfSync(tries: number, work: () => unknown, enough = 0): number {
  let fastest = Infinity;
  for (let i = 0; i < tries && fastest >= enough; i++) {
    const started = performance.now();
    work();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}
