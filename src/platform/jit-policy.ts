/**
 * The binary starts with JavaScriptCore's tier-up thresholds scaled up (scripts/build.ts,
 * `--compile-jit-policy`): start-up is code that runs once (modules evaluated, routes composed,
 * the first look at the data), and optimizing it cost ~165 DFG compiles, the compiler threads'
 * CPU and ~10 MB of an idle server's memory (the optimizing compilers' own machine code paged
 * in, and their output) for nothing. The normal policy comes back once start-up is over, before
 * anything that repeats (requests under load, jobs, commands) needs the JIT.
 *
 * From source the policy is already the normal one and this changes nothing.
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
