/**
 * The import rules of .dependency-cruiser.cjs, checked on every run: no import cycles anywhere
 * in src/, and src/platform imports no domain. (The layer order between domains is still to
 * be written down and enforced: issue 13.)
 */
import { expect, test } from "bun:test";
import { join } from "node:path";

const root = join(import.meta.dir, "..");

test("src/ has no import cycle, and the platform imports no domain", () => {
  const run = Bun.spawnSync([join(root, "node_modules", ".bin", "depcruise"), "src", "--config", ".dependency-cruiser.cjs", "--output-type", "err"], { cwd: root });
  const out = run.stdout.toString() + run.stderr.toString();
  expect(out).not.toContain("error");
  expect(run.exitCode).toBe(0);
}, 60_000);
