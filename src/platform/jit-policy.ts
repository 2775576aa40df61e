/**
 * The binary starts with the JIT's tier-up thresholds scaled up (scripts/build.ts): start-up
 * runs once, and optimizing it paged in the optimizing compilers for nothing (docs/decisions.md,
 * "The JIT waits for the first quiet moment"). The normal policy comes back once start-up is over. From source it already is.
 */
let normal = false;

/** Whether start-up's policy has ended (for tests). */
export function jitPolicyIsNormal(): boolean {
  return normal;
}

/** Back to JavaScriptCore's normal tier-up thresholds; only the first call does anything. */
export function jitAtNormalPolicy(): void {
  if (normal) return;
  normal = true;
  Bun.unsafe.setJITPolicy(1);
}
