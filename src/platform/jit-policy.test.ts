import { expect, test } from "bun:test";
import { join } from "node:path";

// Start-up's policy ends at the first quiet moment after start (idle-gc.ts), or here: on a
// server asked 200 times before any quiet second. The policy is once per process (the first
// call ends it), and other test files in the same run end it early, so this runs in a process
// of its own.
test("a server busy from its start has the JIT's normal policy back after 200 requests, not before", () => {
  const script = `
    const { collectWhenIdle } = await import(${JSON.stringify(join(import.meta.dir, "idle-gc.ts"))});
    const { jitPolicyIsNormal } = await import(${JSON.stringify(join(import.meta.dir, "jit-policy.ts"))});
    const idle = collectWhenIdle();
    const seen = [jitPolicyIsNormal()];
    for (let i = 1; i < 200; i++) idle.touch();
    seen.push(jitPolicyIsNormal());
    idle.touch();
    seen.push(jitPolicyIsNormal());
    idle.stop();
    console.log(JSON.stringify(seen));
  `;
  const run = Bun.spawnSync([process.execPath, "--eval", script], { stdout: "pipe", stderr: "pipe" });
  expect(run.stderr.toString()).toBe("");
  expect(JSON.parse(run.stdout.toString())).toEqual([false, false, true]);
});
