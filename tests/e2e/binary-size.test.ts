/**
 * The gate's binary budget (tests/budgets.ts), checked on the binary the browser tests build
 * once per run (harness.ts), so the suite builds it no more often than it did.
 */
import { expect, test } from "bun:test";
import { statSync } from "node:fs";
import { BINARY_BYTES } from "../budgets";
import { builtBinary } from "./harness";

test("the binary stays within its size budget", async () => {
  const bytes = statSync(await builtBinary()).size;
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  console.log(`binary: ${bytes} bytes (${mb(bytes)}), budget ${BINARY_BYTES.limit} (${mb(BINARY_BYTES.limit)})`);
  if (bytes > BINARY_BYTES.limit)
    throw new Error(
      `the binary is ${bytes} bytes (${mb(bytes)}), over its budget of ${BINARY_BYTES.limit} ` +
        `(${mb(BINARY_BYTES.limit)}; tests/budgets.ts: ${BINARY_BYTES.why})`,
    );
  expect(bytes).toBeGreaterThan(0);
}, 180_000);
