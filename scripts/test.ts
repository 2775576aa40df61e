/**
 * The whole test suite: `bun run test`. Unit tests beside the code in src/, cross-cutting ones in
 * tests/, browser tests in tests/e2e/. In order:
 *
 * 1. Checks that fail fast: `tsc --noEmit`, then the layer rules (tests/architecture.test.ts) and
 *    the formatting (tests/format.test.ts, a few seconds), while the binary the browser tests drive
 *    is built, once for every browser file (its path goes to them in CAIRN_E2E_BINARY, see
 *    tests/e2e/harness.ts).
 *    A failed check stops the run here with its output and the one line below.
 * 2. Every other test file through `bun test --parallel`, the slowest files first
 *    (tests/timings.json; each run writes fresh figures to .bench/test-report/timings.json).
 *    `--no-isolate`: each worker runs its files one after another in one global, as the serial
 *    run did, so a worker launches one browser for all its browser files.
 * 3. One line from the real counts of both JUnit reports, `N passed, N failed`, and a non-zero
 *    exit on any failure. A file that reported nothing (it failed to load, or its worker died)
 *    counts as a failure: the parallel runner's report leaves such a file out.
 *
 * `bun run test:unit` (`--unit`): the in-process tests only (no browser, no process started, no
 * built binary), without the checks. Other arguments are filters as `bun test` takes them
 * (`bun run test src/auth`): only the files whose path contains one, without the checks.
 * CAIRN_TEST_WORKERS sets how many files run at once (docs/decisions.md, "Tests and CI", says why 4).
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "./build";
import { inProcessOnly, readJUnit, testFiles } from "./test-files";

const root = join(import.meta.dir, "..");
const started = performance.now();
const args = process.argv.slice(2);
const unit = args.includes("--unit");
const filters = args.filter((a) => !a.startsWith("--"));
const passThrough = args.filter((a) => a.startsWith("--") && a !== "--unit");
// 2, not 4: on 2 cores the suite is CPU-bound (a run with 4 took as long as with one at a time
// and timed out two browser tests on CPU starvation; docs/decisions.md, "Tests and CI").
const workers = Number(process.env.CAIRN_TEST_WORKERS) || 2;
const LAYERS = "tests/architecture.test.ts";
const FORMAT = "tests/format.test.ts";
const isBrowser = (f: string) => f.startsWith("tests/e2e/") || f.includes(".browser.test.");

let files = testFiles(root).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x.replace(/^\.\//, ""))));
if (unit)
  files = inProcessOnly(
    root,
    files.filter((f) => !isBrowser(f)),
  );
const checks = !unit && filters.length === 0;
if (checks) files = files.filter((f) => f !== LAYERS && f !== FORMAT);
const needsBinary = files.some(isBrowser);

// Browser tests drive Debian's Chromium (playwright-core never downloads a browser of its own).
// The colour-emoji font only makes the screenshots show emoji (page and space icons) as a
// person's desktop would; no test depends on it. poppler-utils' pdftoppm turns the PDF export
// into a PNG to check it is not blank (src/exports/page-export.test.ts).
const EMOJI_FONT = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf";
if (
  !unit &&
  existsSync(join(root, "tests", "needs-chromium")) &&
  (!existsSync("/usr/bin/chromium") || !existsSync(EMOJI_FONT) || !existsSync("/usr/bin/pdftoppm"))
) {
  console.log("Installing Debian's chromium for the browser tests (apt-get)…");
  const apt = (a: string[]) =>
    Bun.spawnSync(["apt-get", ...a], { stdout: "ignore", stderr: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  apt(["update", "-qq"]);
  if (apt(["install", "-y", "-qq", "chromium", "fonts-noto-color-emoji", "poppler-utils"]).exitCode !== 0)
    console.log("Could not install chromium: the browser tests will fail. Install it with: apt-get install -y chromium poppler-utils");
}

const reportDir = join(root, ".bench", "test-report");
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });
const env: Record<string, string | undefined> = { ...process.env, CAIRN_TEST: "1" };
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

function finish(passed: number, failed: number, skipped = 0): never {
  console.log(`(${seconds(started)} in all)`);
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}

/** A command whose output is kept and shown only if it fails, so the checks' output does not interleave. */
async function quietly(cmd: string[]): Promise<{ ok: boolean; output: string; took: string }> {
  const t = performance.now();
  const proc = Bun.spawn(cmd, { cwd: root, env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { ok: code === 0, output: out + err, took: seconds(t) };
}

const layersReport = join(reportDir, "layers.xml");
const formatReport = join(reportDir, "format.xml");
if (checks || needsBinary) {
  console.log(
    checks
      ? "Checks first: tsc --noEmit, the layer rules and the formatting, while the binary is built…"
      : "Building the binary for the browser tests…",
  );
  // Caught at once: a failed build must wait for the checks' verdict, not end the process.
  const binary = needsBinary ? buildOnce().catch((e: Error) => e) : Promise.resolve(null);
  // One after the other: the layer rules' dependency-cruiser test has a minute of its own, which
  // a loaded machine running tsc beside it can exceed.
  const types = checks ? await quietly(["bun", "x", "tsc", "--noEmit"]) : null;
  const testFile = (file: string, junit: string) =>
    quietly(["bun", "test", "--reporter=junit", `--reporter-outfile=${junit}`, `./${file}`]);
  const layers = checks ? await testFile(LAYERS, layersReport) : null;
  const format = checks ? await testFile(FORMAT, formatReport) : null;
  let failedChecks = 0;
  for (const [name, r] of [
    ["typecheck (tsc --noEmit)", types],
    ["layer rules (tests/architecture.test.ts)", layers],
    ["formatting (tests/format.test.ts; bun run format)", format],
  ] as const) {
    if (!r) continue;
    if (r.ok) console.log(`${name}: ok (${r.took})`);
    else {
      console.log(`${r.output}\n${name} FAILED (above).`);
      failedChecks++;
    }
  }
  if (failedChecks) {
    // A failed typecheck counts as one failure; the layer rules and the formatting by their own reports.
    console.log("The tests were not run.");
    const reports = [readJUnit(layersReport), readJUnit(formatReport)];
    const fileFailures = [layers, format].reduce((n, r, i) => n + (r?.ok ? 0 : Math.max(1, reports[i]?.failed ?? 0)), 0);
    finish(
      reports.reduce((n, r) => n + (r?.passed ?? 0), 0),
      fileFailures + (types?.ok ? 0 : 1),
    );
  }
  const built = await binary;
  if (built instanceof Error) {
    console.log(`Building the binary failed: ${built.message}`);
    finish(0, 1);
  }
  if (built) console.log(`binary: ${built}`);
}

async function buildOnce(): Promise<string> {
  const dir = join(root, "dist", `e2e-${process.pid}`);
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  const { outfile } = await build({ quiet: true, distDir: dir });
  env.CAIRN_E2E_BINARY = outfile;
  return outfile;
}

const report = join(reportDir, "junit.xml");
const timings = join(reportDir, "timings.json");
const committedTimings = join(root, "tests", "timings.json");
if (existsSync(committedTimings)) await Bun.write(timings, readFileSync(committedTimings));
const proc = Bun.spawn(
  [
    "bun",
    "test",
    "--timeout=30000",
    `--parallel=${workers}`,
    "--no-isolate",
    `--timings=${timings}`,
    "--update-timings",
    "--reporter=junit",
    `--reporter-outfile=${report}`,
    ...passThrough,
    ...files.map((f) => `./${f}`),
  ],
  { cwd: root, stdout: "inherit", stderr: "inherit", env },
);
const code = await proc.exited;

const main = readJUnit(report);
const checkReports = checks ? [readJUnit(layersReport), readJUnit(formatReport)] : [];
const fromChecks = (count: "passed" | "failed" | "skipped") => checkReports.reduce((n, r) => n + (r?.[count] ?? 0), 0);
let failed = (main?.failed ?? 0) + fromChecks("failed");
const missing = files.filter((f) => !main?.files.has(f));
if (missing.length) console.log(`\nNo report from ${missing.length} file(s) (a load error or a crash, above):\n  ${missing.join("\n  ")}`);
failed += missing.length;
if (code !== 0 && failed === 0) failed = 1; // the runner failed outside any test
finish((main?.passed ?? 0) + fromChecks("passed"), failed, (main?.skipped ?? 0) + fromChecks("skipped"));
