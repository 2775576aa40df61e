/**
 * What scripts/test.ts runs and reads back: the test files of the checkout, which of them stay in
 * the test's own process, and the counts of a JUnit report.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Every test file under src/, tests/ and scripts/, as `bun test` would find them, sorted. */
export function testFiles(root: string): string[] {
  const glob = new Bun.Glob("{src,tests,scripts}/**/*{.test,_test_,.spec,_spec_}*.{ts,tsx,js,jsx}");
  return [...glob.scanSync({ cwd: root })].filter((f) => !f.includes("node_modules/")).sort();
}

/**
 * A test that starts a process (a server from source, the binary, a CLI, a crash test) waits on
 * it, and is the slow part of the suite; `bun run test:unit` leaves such files out.
 */
const STARTS_A_PROCESS = /server-process|Bun\.spawn|spawnSync|child_process|builtBinary|startCairn/;

export function inProcessOnly(root: string, files: string[]): string[] {
  return files.filter((f) => !STARTS_A_PROCESS.test(readFileSync(join(root, f), "utf8")));
}

export interface JUnitCounts {
  passed: number;
  failed: number;
  skipped: number;
  /** The files that reported (the top-level suites). */
  files: Set<string>;
}

/** The counts of a report `bun test --reporter=junit` wrote, or null when there is none. */
export function readJUnit(path: string): JUnitCounts | null {
  if (!existsSync(path)) return null;
  const xml = readFileSync(path, "utf8");
  const top = /<testsuites[^>]*>/.exec(xml)?.[0] ?? "";
  const num = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(top)?.[1] ?? 0);
  const tests = num("tests");
  const failed = num("failures") + num("errors");
  const skipped = num("skipped");
  // Top-level suites are indented by two spaces; nested describe blocks further.
  const files = new Set([...xml.matchAll(/^ {2}<testsuite name="[^"]*" file="([^"]+)"/gm)].map((m) => m[1]!));
  return { passed: Math.max(0, tests - failed - skipped), failed, skipped, files };
}
