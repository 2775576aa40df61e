import { expect, test } from "bun:test";
import { collectWhenIdle } from "./idle-gc";
import { jitPolicyIsNormal } from "./jit-policy";

// Start-up's policy ends at the first quiet moment after start (idle-gc.ts), or here: on a
// server asked 200 times before any quiet second.
test("a server busy from its start has the JIT's normal policy back after 200 requests, not before", () => {
  const idle = collectWhenIdle();
  try {
    expect(jitPolicyIsNormal()).toBe(false);
    for (let i = 1; i < 200; i++) idle.touch();
    expect(jitPolicyIsNormal()).toBe(false);
    idle.touch();
    expect(jitPolicyIsNormal()).toBe(true);
  } finally {
    idle.stop();
  }
});
