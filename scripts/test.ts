/**
 * The whole test suite: `bun run test`. Runs `bun test` (unit tests beside the code in src/,
 * cross-cutting ones in tests/) with a JUnit report, then prints the one line CI reads,
 * `N passed, N failed`, from the real counts, and exits non-zero on any failure.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");

// Browser tests drive Debian's Chromium (playwright-core never downloads a browser of its own).
// The colour-emoji font only makes the screenshots show emoji (page and space icons) as a
// person's desktop would; no test depends on it. poppler-utils' pdftoppm turns the PDF export
// into a PNG to check it is not blank (src/exports/page-export.test.ts).
const EMOJI_FONT = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf";
if (existsSync(join(root, "tests", "needs-chromium")) && (!existsSync("/usr/bin/chromium") || !existsSync(EMOJI_FONT) || !existsSync("/usr/bin/pdftoppm"))) {
  console.log("Installing Debian's chromium for the browser tests (apt-get)…");
  const apt = (args: string[]) => Bun.spawnSync(["apt-get", ...args], { stdout: "ignore", stderr: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  apt(["update", "-qq"]);
  if (apt(["install", "-y", "-qq", "chromium", "fonts-noto-color-emoji", "poppler-utils"]).exitCode !== 0) console.log("Could not install chromium: the browser tests will fail. Install it with: apt-get install -y chromium poppler-utils");
}
const reportDir = join(root, ".bench", "test-report");
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });
const report = join(reportDir, "junit.xml");

const proc = Bun.spawn(["bun", "test", "--timeout=30000", "--reporter=junit", `--reporter-outfile=${report}`, ...process.argv.slice(2)], {
  cwd: root,
  stdout: "inherit",
  stderr: "inherit",
  env: { ...process.env, CAIRN_TEST: "1" },
});
const code = await proc.exited;

let tests = 0;
let failures = 0;
let skipped = 0;
try {
  const xml = readFileSync(report, "utf8");
  const top = /<testsuites[^>]*>/.exec(xml)?.[0] ?? "";
  const num = (name: string) => Number(new RegExp(`${name}="(\\d+)"`).exec(top)?.[1] ?? 0);
  tests = num("tests");
  failures = num("failures") + num("errors");
  skipped = num("skipped");
} catch {
  failures = Math.max(failures, 1);
}
const passed = Math.max(0, tests - failures - skipped);
if (code !== 0 && failures === 0) failures = 1; // the runner failed outside any test (load error)
console.log(`${passed} passed, ${failures} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failures > 0 || code !== 0 || tests === 0 ? 1 : 0);
