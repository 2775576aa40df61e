/**
 * The import rules of .dependency-cruiser.cjs, checked on every run: no import cycles anywhere
 * in src/; src/platform imports no domain; the web UI imports no server code but the editor
 * schema, and keeps TipTap, the editor and history out of its reading bundle. (The layer
 * order between domains is still to be written down and enforced: issue 13.)
 */
import { expect, test } from "bun:test";
import { join } from "node:path";

const root = join(import.meta.dir, "..");

test("src/ keeps its import rules (.dependency-cruiser.cjs)", () => {
  const run = Bun.spawnSync([join(root, "node_modules", ".bin", "depcruise"), "src", "--config", ".dependency-cruiser.cjs", "--output-type", "err"], { cwd: root });
  const out = run.stdout.toString() + run.stderr.toString();
  expect(out).not.toContain("error");
  expect(run.exitCode).toBe(0);
}, 60_000);
