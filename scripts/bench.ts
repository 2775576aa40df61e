/**
 * `bun run bench` (many minutes on 2 cores: 100,000 pages seeded, then collaboration, a 1 GB
 * backup and a 10,000-page import besides the scenarios) or `bun run bench -- --quick` (2–3
 * minutes, 10,000 pages): builds dist/cairn (or takes
 * --binary=PATH), then measures one run (bench/run.ts): cold start, idle memory and the
 * throughput and server CPU per request of each scenario in bench/scenarios.ts against a bare
 * Bun.serve baseline loaded the same way, on a data directory seeded beforehand through the
 * service layer (bench/content-run.ts). Prints a table and the change of every figure against
 * the previous run (bench/history.ts); writes .bench/results.json, and a full run of a build of
 * this checkout appends itself to bench/history.jsonl.
 *
 * `bun run bench --compare <ref> [--quick] [--rounds=N]`: this checkout against another commit,
 * built from its own worktree, the two binaries run alternately (bench/compare.ts).
 *
 * Only 127.0.0.1; every child is killed on the way out.
 */
import { mkdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "./build";
import { killAll } from "./bench/procs";
import { formatReport, writeResults } from "./bench/report";
import { seedContent } from "./bench/content-run";
import { appendEntry, formatChange, HISTORY_FILE, machineFactsBefore, makeEntry, QUICK_HISTORY_FILE, readHistory } from "./bench/history";
import { PLANS, runBench } from "./bench/run";

// `bun run bench -- --fuzz` runs only the long fuzz (bench/fuzz.ts), not the benchmark.
if (process.argv.includes("--fuzz")) process.exit(await (await import("./bench/fuzz")).runFuzz(process.argv));
// `bun run bench -- --store-spike` runs only the sync-or-async stores spike (bench/store-spike.ts).
if (process.argv.includes("--store-spike")) {
  await (await import("./bench/store-spike")).runStoreSpike(process.argv);
  process.exit(0);
}

const root = join(import.meta.dir, "..");
const out = join(root, ".bench");
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const plan = quick ? PLANS.quick : PLANS.full;
/** `--name=value` or `--name value`. */
function option(name: string): string | undefined {
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  return args[i].includes("=") ? args[i].slice(name.length + 3) : args[i + 1];
}
// --binary=PATH benchmarks an existing build instead; its commit is unknown, so it is not appended.
const givenArg = option("binary");
const givenBinary = givenArg ? resolve(givenArg) : undefined; // the binary runs from another cwd
const comparing = args.some((a) => a === "--compare" || a.startsWith("--compare="));
const compareRef = option("compare");
const rounds = Number(option("rounds") ?? 2);
if (comparing && (!compareRef || compareRef.startsWith("--"))) fail("--compare needs a commit, e.g. --compare HEAD~1");
if (comparing && givenBinary) fail("--compare builds both commits itself; it takes no --binary");
if (!Number.isInteger(rounds) || rounds < 2) fail("--rounds must be a whole number, at least 2 (the spread between rounds is the noise)");

function fail(message: string): never {
  killAll();
  console.error(`bench failed: ${message}`);
  process.exit(1);
}

// Two builds (install and build of the other commit: minutes), then 2 × rounds runs.
const deadlineMs = compareRef ? 1_800_000 + 2 * rounds * plan.deadlineMs : plan.deadlineMs;
process.on("exit", killAll);
process.on("SIGINT", () => fail("interrupted"));
process.on("SIGTERM", () => fail("terminated"));
setTimeout(() => fail(`did not finish within ${deadlineMs / 1000} s`), deadlineMs).unref();

const startedAt = performance.now();

async function main() {
  mkdirSync(out, { recursive: true });
  if (compareRef) {
    const { runCompare } = await import("./bench/compare");
    console.log(
      `comparing this checkout with ${compareRef}: ${rounds} ` +
        `${quick ? "quick" : "full"} runs of each, alternately; logs in .bench/compare/`,
    );
    const text = await runCompare({ ref: compareRef, rounds, plan, log: console.log });
    console.log(`\n${text}\nwritten .bench/compare.json; ${((performance.now() - startedAt) / 1000).toFixed(1)} s in all`);
    return;
  }

  // Before the build too: the build's own load would otherwise be counted as the machine's.
  const machine = machineFactsBefore();
  const { outfile, bytes } = givenBinary ? { outfile: givenBinary, bytes: statSync(givenBinary).size } : await build({ quiet: true });
  console.log(
    `${givenBinary ? "using" : "built"} ${outfile} (${(bytes / 1024 / 1024).toFixed(1)}` +
      ` MB); ${quick ? "quick run" : "full run"}, logs in .bench/`,
  );
  const report = await runBench({
    binary: outfile,
    binaryBytes: bytes,
    plan,
    logDir: out,
    seed: () => seedContent(quick, console.log),
    log: console.log,
  });
  writeResults(join(out, "results.json"), report);
  const entry = makeEntry(report, quick, machine);
  console.log(`\n${formatReport(report).text}`);

  // Quick runs are compared with quick runs only (a 10,000-page corpus, 3-second loads).
  const historyFile = quick ? QUICK_HISTORY_FILE : HISTORY_FILE;
  const previous = readHistory(historyFile).at(-1);
  console.log(
    previous ? `\n${formatChange(previous, entry.figures)}` : `\nno earlier ${quick ? "quick " : ""}run in ${historyFile} to compare with`,
  );
  if (givenBinary) console.log("not added to the history: a binary given with --binary may be of any commit");
  else appendEntry(historyFile, entry);
  const where = givenBinary
    ? ""
    : `, appended to ${historyFile.slice(root.length + 1)}${entry.dirty ? " (commit has uncommitted changes: marked dirty)" : ""}`;
  const seeded = report.extras?.seedSeconds;
  console.log(
    `\nwritten .bench/results.json${where}; ${((performance.now() - startedAt) / 1000).toFixed(1)} s in ` +
      `all${typeof seeded === "number" ? `, ${seeded.toFixed(1)} s of it seeding BIG` : ""}`,
  );
}

main().then(
  () => process.exit(0),
  (err) => fail(err instanceof Error ? (err.stack ?? err.message) : String(err)),
);
