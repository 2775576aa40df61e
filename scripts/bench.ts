/**
 * `bun run bench` (about 5 minutes on 2 cores, 1 of them seeding 100,000 pages) or
 * `bun run bench -- --quick` (about 2 minutes, 10,000 pages): builds dist/cairn (or takes
 * --binary=PATH), then measures cold start, idle memory and the throughput of each scenario in
 * scripts/bench/scenarios.ts against a bare Bun.serve baseline loaded the same way; the server
 * runs on a data directory seeded beforehand through the service layer (bench/content-run.ts). Prints a table and writes .bench/results.json. Only 127.0.0.1; every
 * child is killed on the way out.
 */
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { build } from "./build";
import { load, type LoadResult } from "./bench/load";
import { freePort, HOST, killAll, rssMb, spawnLogged, stop, waitFor200 } from "./bench/procs";
import { formatReport, writeResults, type BenchReport, type ScenarioRow } from "./bench/report";
import { contentFigures, seedContent } from "./bench/content-run";
import { SCENARIOS, type BenchContext, type ExtraFigures, type Scenario } from "./bench/scenarios";
import { seedContext } from "./bench/seed";
import { coldStarts, median, startCairn } from "./bench/server";
import { measureUploads } from "./bench/upload";
import { measureWeb } from "./bench/web";
import { measureKeptAnswers } from "./bench/kept-answers";
import { firstTimeFigures, measureFirstTimeSearch } from "./bench/search-100k";
import { measureCollab } from "./bench/collab";
import { measureBackupStall } from "./bench/backup-stall";
import { measureExportImport } from "./bench/export-import";

// `bun run bench -- --fuzz` runs only the long fuzz (bench/fuzz.ts), not the benchmark.
if (process.argv.includes("--fuzz")) process.exit(await (await import("./bench/fuzz")).runFuzz(process.argv));

const root = join(import.meta.dir, "..");
const out = join(root, ".bench");
const quick = process.argv.includes("--quick");
// --binary=PATH benchmarks an existing build instead (e.g. to compare two commits).
const givenArg = process.argv.find((a) => a.startsWith("--binary="))?.slice("--binary=".length);
const givenBinary = givenArg ? resolve(givenArg) : undefined; // the binary runs from another cwd
// The deadlines include seeding the content pages (10,000 quick, ~20 s; 100,000 full, ~1 min
// on 2 cores) and the content and side-effect scenarios after the foundation's.
const plan = quick
  ? { coldRuns: 5, warmupSec: 1, durationSec: 3, idleMs: 1_000, deadlineMs: 180_000 }
  : { coldRuns: 5, warmupSec: 2, durationSec: 10, idleMs: 3_000, deadlineMs: 900_000 };

function fail(message: string): never {
  killAll();
  console.error(`bench failed: ${message}`);
  process.exit(1);
}

process.on("exit", killAll);
process.on("SIGINT", () => fail("interrupted"));
process.on("SIGTERM", () => fail("terminated"));
setTimeout(() => fail(`did not finish within ${plan.deadlineMs / 1000} s`), plan.deadlineMs).unref();

/** Logs go to files: the server writes a line per request, which would flood the terminal. */
function logFile(name: string): string {
  const path = join(out, name);
  writeFileSync(path, "");
  return path;
}

/** A bare Bun.serve in its own process: the yardstick the scenarios are compared with. */
async function startBaseline() {
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const child = spawnLogged(["bun", join(import.meta.dir, "bench/baseline-server.ts"), String(port)], logFile("baseline.log"));
  await waitFor200(url, child, 10_000);
  return { child, url, load: () => load(url, child.pid, [{ method: "GET", path: "/" }], plan.durationSec, plan.warmupSec) };
}

/** Loads each scenario in turn against one seeded server; any non-2xx answer fails the run. */
async function runScenarios(url: string, pid: number, ctx: BenchContext) {
  const loads: Array<{ scenario: Scenario; r: LoadResult; extra: ExtraFigures }> = [];
  for (const scenario of SCENARIOS) {
    await scenario.setup?.(ctx);
    const r = await load(url, pid, scenario.requests(ctx), plan.durationSec, plan.warmupSec, { timeoutsAreMisses: scenario.timeoutsAreMisses });
    const missedOnly = scenario.timeoutsAreMisses && r.non2xx === 0;
    if (r.non2xx > 0 || (r.errors > 0 && !missedOnly)) fail(`${scenario.name}: ${r.non2xx} non-2xx answer(s) ${JSON.stringify(r.statuses)}, ${r.errors} error(s)`);
    const extra = (await scenario.after?.(ctx, r)) ?? {};
    if (r.errors > 0) extra.timedOut = r.errors; // and the scenario is MISSED (below)
    loads.push({ scenario, r, extra });
    console.log(`${scenario.name}: ${Math.round(r.rps)} rps, p95 ${r.p95Ms} ms${Object.keys(extra).length ? ` ${JSON.stringify(extra)}` : ""}`);
  }
  return loads;
}

const startedAt = performance.now();

async function main() {
  mkdirSync(out, { recursive: true });
  const { outfile, bytes } = givenBinary ? { outfile: givenBinary, bytes: statSync(givenBinary).size } : await build({ quiet: true });
  const binaryMb = bytes / 1024 / 1024;
  console.log(`${givenBinary ? "using" : "built"} ${outfile} (${binaryMb.toFixed(1)} MB); ${quick ? "quick run" : "full run"}, logs in .bench/`);
  const loadBefore = loadavg()[0];

  const coldStartRunsMs = await coldStarts(outfile, logFile("cold-start.log"), plan.coldRuns);
  console.log(`cold start: ${coldStartRunsMs.map((ms) => ms.toFixed(1)).join(", ")} ms`);

  // Loaded before and after the scenarios: on a shared machine the two differ, and how much
  // says how far the ratios can be trusted.
  const baseline = await startBaseline();
  const baseBefore = await baseline.load();
  console.log(`baseline: ${Math.round(baseBefore.rps)} rps`);

  const serverLog = logFile("server.log");
  // Pages are written through the service layer before the server opens the directory.
  const content = await seedContent(quick, console.log);
  // The side-effects scenario's webhooks call a receiver on 127.0.0.1 (children inherit the env).
  process.env.CAIRN_OUTBOUND_ALLOW = HOST;
  const cairn = await startCairn(outfile, serverLog, content.dataDir);
  const ctx = await seedContext(cairn.url, quick, true);
  ctx.shared.preSeed = content.pre;
  // A few ordinary requests before the idle reading, so it is memory after real use.
  for (const path of ["/api/health", "/api/auth/me", "/api/instance"]) await ctx.api("GET", path);
  await Bun.sleep(plan.idleMs);
  const idleRssMb = rssMb(cairn.child.pid);
  console.log(`idle RSS: ${idleRssMb.toFixed(1)} MB`);
  // Then the web UI in Chromium, and memory again once the server has served it (reported
  // beside the target: 40 long pages were written and read meanwhile, so it is not the same figure).
  const web = await measureWeb(ctx);
  for (const f of web.figures) console.log(`${f.figure}: ${f.value}`);
  await Bun.sleep(plan.idleMs);
  const idleAfterWebMb = rssMb(cairn.child.pid);
  web.figures.push({ figure: "idle RSS after the web UI was used (40 pages written, 20 views)", value: `${idleAfterWebMb.toFixed(1)} MB`, target: "", met: null });
  web.extras.idleRssAfterWebMb = Math.round(idleAfterWebMb * 10) / 10;
  console.log(`idle RSS after the web UI: ${idleAfterWebMb.toFixed(1)} MB`);
  const upload = await measureUploads(ctx, cairn.child.pid, content.pre.big.pageIds, { url: baseline.url, pid: baseline.child.pid });
  for (const r of upload.runs) console.log(`upload ${r.uploadMb} MB: RSS ${r.rssBeforeMb.toFixed(1)} MB, peak +${r.uploadRssGrowthMb.toFixed(1)} MB, 1 s after +${r.uploadRssAfterGrowthMb.toFixed(1)} MB`);
  console.log(`upload to bare Bun.serve: peak +${upload.bareBunGrowthMb.toFixed(1)} MB`);

  const loads = await runScenarios(cairn.url, cairn.child.pid, ctx);
  // First-time searches (docs/decisions.md, "Bounded ranking"): distinct queries, one at a time, so
  // no kept answer answers.
  const firstTime = await measureFirstTimeSearch(cairn.url, ctx.auth());
  for (const f of firstTimeFigures(firstTime, content.pre.big.pageIds.length)) (console.log(`${f.figure}: ${f.value}`), web.figures.push(f));
  web.extras.firstTimeSearch = firstTime;
  const code = await cairn.stop();
  if (code !== 0) fail(`cairn exited with ${code} after SIGTERM (see ${serverLog})`);

  // Kept answers under mixed traffic, on an instance of their own (counts from its shutdown log).
  const kept = await measureKeptAnswers(outfile, logFile("kept-answers.log"), quick);
  const keptSummary = `${(kept.hitRate.all * 100).toFixed(1)} % (${kept.reads} reads, ${kept.writes} writes, ${kept.deliveries} webhook deliveries in ${kept.seconds} s; trees ${kept.hitRate.trees}, pages ${kept.hitRate.pages}, search ${kept.hitRate.search})`;
  console.log(`kept answers hit rate: ${keptSummary}`);
  web.figures.push({ figure: "kept answers hit rate under mixed traffic (tokens in use, webhooks delivering)", value: keptSummary, target: "", met: null });
  web.extras.keptAnswers = kept;

  // Real-time collaboration (bench/collab.ts), full runs only: its own instance, about a minute.
  if (!quick) {
    const collab = await measureCollab(outfile, logFile("collab.log"));
    web.figures.push(...collab.figures);
    Object.assign(web.extras, collab.extras);
  }

  // Writer stall while backing up 1 GB (bench/backup-stall.ts), full runs only: its own instance, 2–3 minutes.
  if (!quick) {
    const backup = await measureBackupStall(outfile, logFile("backup-stall.log"));
    for (const f of backup.figures) console.log(`${f.figure}: ${f.value}`);
    web.figures.push(...backup.figures);
    Object.assign(web.extras, backup.extras);
  }

  // Export and import of a 10,000-page space (bench/export-import.ts), full runs only: its own instance, 1–2 minutes.
  if (!quick) {
    const exportImport = await measureExportImport(outfile, logFile("export-import.log"));
    for (const f of exportImport.figures) console.log(`${f.figure}: ${f.value}`);
    web.figures.push(...exportImport.figures);
    Object.assign(web.extras, exportImport.extras);
  }

  const baseAfter = await baseline.load();
  console.log(`baseline again: ${Math.round(baseAfter.rps)} rps`);
  await stop(baseline.child);

  const baselineRps = (baseBefore.rps + baseAfter.rps) / 2;
  const scenarios: ScenarioRow[] = loads.map(({ scenario, r, extra }) => {
    const figures = { rps: r.rps, p50Ms: r.p50Ms, p95Ms: r.p95Ms, p99Ms: r.p99Ms, ratioToBaseline: r.rps / baselineRps };
    return { name: scenario.name, ...figures, cpuUsPerRequest: r.cpuUsPerRequest, target: scenario.target, met: !extra.timedOut && scenario.met({ ...figures, extra }), extra };
  });
  const report: BenchReport = {
    baselineRps,
    baselineRunsRps: [baseBefore.rps, baseAfter.rps],
    baselineCpuUs: (baseBefore.cpuUsPerRequest + baseAfter.cpuUsPerRequest) / 2,
    coldStartMs: median(coldStartRunsMs),
    coldStartRunsMs,
    idleRssMb,
    binaryMb,
    scenarios,
    machineLoad: [loadBefore, loadavg()[0]],
  };
  const contentPart = contentFigures(content.pre, upload);
  report.figures = [...contentPart.figures, ...web.figures];
  report.extras = { ...contentPart.extras, ...web.extras };
  writeResults(join(out, "results.json"), report);
  console.log(`\n${formatReport(report).text}\nwritten .bench/results.json; ${((performance.now() - startedAt) / 1000).toFixed(1)} s in all, ${content.pre.seedSeconds.toFixed(1)} s of it seeding BIG`);
}

main().then(
  () => process.exit(0),
  (err) => fail(err instanceof Error ? (err.stack ?? err.message) : String(err)),
);
