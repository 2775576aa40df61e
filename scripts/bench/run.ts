/**
 * One benchmark run against a given binary: cold start, idle memory, the web UI, uploads, the
 * load scenarios beside a bare Bun.serve baseline, first-time search, kept answers and (full
 * runs only) collaboration, backup stall and export/import. bench.ts calls it once for a plain
 * run; compare.ts calls it for two binaries in turn. It throws on the first failure; the caller
 * kills the children (procs.ts) and says why.
 */
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { load, type LoadResult } from "./load";
import { cpuMicros, freePort, HOST, rssMb, spawnLogged, stop, threadsCpuNanos, waitFor200 } from "./procs";
import type { BenchReport, FigureRow, ScenarioRow } from "./report";
import { contentFigures, type SeededPre } from "./content-run";
import { SCENARIOS, type BenchContext, type ExtraFigures, type Scenario } from "./scenarios";
import { seedContext } from "./seed";
import { coldStarts, median, startCairn } from "./server";
import { measureUploads } from "./upload";
import { measureWeb } from "./web";
import { measureKeptAnswers } from "./kept-answers";
import { firstTimeFigures, measureFirstTimeSearch } from "./search-100k";
import { measureCollab } from "./collab";
import { measureBackupStall } from "./backup-stall";
import { measureExportImport } from "./export-import";

export interface RunPlan {
  quick: boolean;
  coldRuns: number;
  warmupSec: number;
  durationSec: number;
  idleMs: number;
  /** For the whole of one run, seeding included. */
  deadlineMs: number;
}

// The deadlines include seeding the content pages (10,000 quick, ~20 s; 100,000 full, ~1 min
// on 2 cores) and the content and side-effect scenarios after the foundation's. They stop a
// hung run, not a slow one: a quick run on a busy shared machine took over 180 s.
export const PLANS: Record<"quick" | "full", RunPlan> = {
  quick: { quick: true, coldRuns: 5, warmupSec: 1, durationSec: 3, idleMs: 1_000, deadlineMs: 420_000 },
  full: { quick: false, coldRuns: 5, warmupSec: 2, durationSec: 10, idleMs: 3_000, deadlineMs: 900_000 },
};

export interface RunOptions {
  binary: string;
  binaryBytes: number;
  plan: RunPlan;
  /** Where the logs go (.bench/ or a subfolder of it). */
  logDir: string;
  /** Seeds a fresh data directory (seed-pages.ts) with the source tree that matches the binary. */
  seed(): Promise<{ dataDir: string; pre: SeededPre }>;
  log(line: string): void;
}

export async function runBench(o: RunOptions): Promise<BenchReport> {
  const { plan, log } = o;
  const logFile = (name: string) => {
    // Logs go to files: the server writes a line per request, which would flood the terminal.
    const path = join(o.logDir, name);
    writeFileSync(path, "");
    return path;
  };
  const loadBefore = loadavg()[0];

  const startupCpuMs: number[] = [];
  const coldStartRunsMs = await coldStarts(o.binary, logFile("cold-start.log"), plan.coldRuns, startupCpuMs);
  log(
    `cold start: ${coldStartRunsMs.map((ms) => ms.toFixed(1)).join(", ")} ms; server CPU by ` +
      `then ${startupCpuMs.map((ms) => Math.round(ms)).join(", ")} ms`,
  );

  // Loaded before and after the scenarios: on a shared machine the two differ, and how much
  // says how far the ratios can be trusted.
  const baseline = await startBaseline(logFile("baseline.log"), plan);
  const baseBefore = await baseline.load();
  log(`baseline: ${Math.round(baseBefore.rps)} rps`);

  const serverLog = logFile("server.log");
  // Pages are written through the service layer before the server opens the directory.
  const content = await o.seed();
  // The side-effects scenario's webhooks call a receiver on 127.0.0.1 (children inherit the env).
  process.env.CAIRN_OUTBOUND_ALLOW = HOST;
  const cairn = await startCairn(o.binary, serverLog, content.dataDir);
  const ctx = await seedContext(cairn.url, plan.quick, true);
  ctx.shared.preSeed = content.pre;
  // A few ordinary requests before the idle reading, so it is memory after real use.
  for (const path of ["/api/health", "/api/auth/me", "/api/instance"]) await ctx.api("GET", path);
  // Idle CPU over the second half only: the first may still hold work deferred until after
  // listening, which is start-up, not idling.
  await Bun.sleep(plan.idleMs / 2);
  const idleCpu0 = threadsCpuNanos(cairn.child.pid);
  await Bun.sleep(plan.idleMs / 2);
  const idleCpuMsPerSec = (threadsCpuNanos(cairn.child.pid) - idleCpu0) / 1e6 / (plan.idleMs / 2000);
  const idleRssMb = rssMb(cairn.child.pid);
  log(`idle RSS: ${idleRssMb.toFixed(1)} MB; idle CPU ${idleCpuMsPerSec.toFixed(2)} ms/s`);
  // Then the web UI in Chromium, and memory again once the server has served it (reported
  // beside the target: 40 long pages were written and read meanwhile, so it is not the same figure).
  const web = await measureWeb(ctx);
  for (const f of web.figures) log(`${f.figure}: ${f.value}`);
  await Bun.sleep(plan.idleMs);
  const idleAfterWebMb = rssMb(cairn.child.pid);
  web.figures.push({
    figure: "idle RSS after the web UI was used (40 pages written, 20 views)",
    value: `${idleAfterWebMb.toFixed(1)} MB`,
    target: "",
    met: null,
  });
  web.extras.idleRssAfterWebMb = Math.round(idleAfterWebMb * 10) / 10;
  log(`idle RSS after the web UI: ${idleAfterWebMb.toFixed(1)} MB`);
  const upload = await measureUploads(ctx, cairn.child.pid, content.pre.big.pageIds, { url: baseline.url, pid: baseline.child.pid });
  for (const r of upload.runs)
    log(
      `upload ${r.uploadMb} MB: RSS ${r.rssBeforeMb.toFixed(1)} MB, peak ` +
        `+${r.uploadRssGrowthMb.toFixed(1)} MB, 1 s after +${r.uploadRssAfterGrowthMb.toFixed(1)} MB`,
    );
  log(`upload to bare Bun.serve: peak +${upload.bareBunGrowthMb.toFixed(1)} MB`);

  const loads = await runScenarios(cairn.url, cairn.child.pid, ctx, plan, log);
  // First-time searches: distinct queries, one at a time, so no kept answer answers.
  const firstTime = await measureFirstTimeSearch(cairn.url, ctx.auth());
  for (const f of firstTimeFigures(firstTime, content.pre.big.pageIds.length)) log(`${f.figure}: ${f.value}`), web.figures.push(f);
  web.extras.firstTimeSearch = firstTime;
  const code = await cairn.stop();
  if (code !== 0) throw new Error(`cairn exited with ${code} after SIGTERM (see ${serverLog})`);

  // Kept answers under mixed traffic, on an instance of their own (counts from its shutdown log).
  const kept = await measureKeptAnswers(o.binary, logFile("kept-answers.log"), plan.quick);
  const keptSummary =
    `${(kept.hitRate.all * 100).toFixed(1)} % (${kept.reads} reads, ${kept.writes} writes, ${kept.deliveries} webhook deliveries in ` +
    `${kept.seconds} s; trees ${kept.hitRate.trees}, pages ${kept.hitRate.pages}, search ${kept.hitRate.search})`;
  log(`kept answers hit rate: ${keptSummary}`);
  web.figures.push({
    figure: "kept answers hit rate under mixed traffic (tokens in use, webhooks delivering)",
    value: keptSummary,
    target: "",
    met: null,
  });
  web.extras.keptAnswers = kept;

  if (!plan.quick) {
    // Real-time collaboration (collab.ts): its own instance, about a minute.
    const collab = await measureCollab(o.binary, logFile("collab.log"));
    web.figures.push(...collab.figures);
    Object.assign(web.extras, collab.extras);
    // Writer stall while backing up 1 GB (backup-stall.ts): its own instance, 2–3 minutes.
    const backup = await measureBackupStall(o.binary, logFile("backup-stall.log"));
    for (const f of backup.figures) log(`${f.figure}: ${f.value}`);
    web.figures.push(...backup.figures);
    Object.assign(web.extras, backup.extras);
    // Export and import of a 10,000-page space (export-import.ts): its own instance, 1–2 minutes.
    const exportImport = await measureExportImport(o.binary, logFile("export-import.log"));
    for (const f of exportImport.figures) log(`${f.figure}: ${f.value}`);
    web.figures.push(...exportImport.figures);
    Object.assign(web.extras, exportImport.extras);
  }

  const baseAfter = await baseline.load();
  log(`baseline again: ${Math.round(baseAfter.rps)} rps`);
  await stop(baseline.child);

  const baselineRps = (baseBefore.rps + baseAfter.rps) / 2;
  const scenarios: ScenarioRow[] = loads.map(({ scenario, r, extra }) => {
    const figures = { rps: r.rps, p50Ms: r.p50Ms, p95Ms: r.p95Ms, p99Ms: r.p99Ms, ratioToBaseline: r.rps / baselineRps };
    return {
      name: scenario.name,
      ...figures,
      cpuUsPerRequest: r.cpuUsPerRequest,
      target: scenario.target,
      met: !extra.timedOut && scenario.met({ ...figures, extra }),
      extra,
    };
  });
  const report: BenchReport = {
    baselineRps,
    baselineRunsRps: [baseBefore.rps, baseAfter.rps],
    baselineCpuUs: (baseBefore.cpuUsPerRequest + baseAfter.cpuUsPerRequest) / 2,
    coldStartMs: median(coldStartRunsMs),
    coldStartRunsMs,
    idleRssMb,
    binaryMb: o.binaryBytes / 1024 / 1024,
    scenarios,
    machineLoad: [loadBefore, loadavg()[0]],
  };
  const contentPart = contentFigures(content.pre, upload);
  const startup: FigureRow[] = [
    {
      figure: "server CPU at the first 200 of a cold start (median)",
      value: `${Math.round(median(startupCpuMs))} ms (${startupCpuMs.map((ms) => Math.round(ms)).join(", ")})`,
      target: "",
      met: null,
    },
    {
      figure: `idle CPU (server threads, ${plan.idleMs / 2000} s after ${plan.idleMs / 2000} s quiet)`,
      value: `${idleCpuMsPerSec.toFixed(2)} ms/s`,
      target: "",
      met: null,
    },
  ];
  report.figures = [...startup, ...contentPart.figures, ...web.figures];
  report.extras = {
    startupCpuMs: Math.round(median(startupCpuMs)),
    idleCpuMsPerSec: Math.round(idleCpuMsPerSec * 100) / 100,
    ...contentPart.extras,
    ...web.extras,
  };
  return report;
}

/** A bare Bun.serve in its own process: the yardstick the scenarios are compared with. */
async function startBaseline(logPath: string, plan: RunPlan) {
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const child = spawnLogged(["bun", join(import.meta.dir, "baseline-server.ts"), String(port)], logPath);
  await waitFor200(url, child, 10_000);
  return { child, url, load: () => load(url, child.pid, [{ method: "GET", path: "/" }], plan.durationSec, plan.warmupSec) };
}

/**
 * Waits until the server has finished what the last load left it (the search index catching up
 * on a PUT load's versions, deliveries draining): a scenario's server CPU is read from before
 * its load to after it, so that work was billed to whichever scenario came next (the first
 * search after the PUTs once looked 42 % dearer than the same search run second). Quiet: under
 * 10 ms of CPU in 300 ms (the clock ticks in 10 ms); at most 10 s.
 */
async function quietServer(pid: number): Promise<void> {
  const until = performance.now() + 10_000;
  for (let before = cpuMicros(pid); performance.now() < until; ) {
    await Bun.sleep(300);
    const now = cpuMicros(pid);
    if (now - before < 10_000) return;
    before = now;
  }
}

/** Loads each scenario in turn against one seeded server; any non-2xx answer fails the run. */
async function runScenarios(url: string, pid: number, ctx: BenchContext, plan: RunPlan, log: (line: string) => void) {
  const loads: Array<{ scenario: Scenario; r: LoadResult; extra: ExtraFigures }> = [];
  for (const scenario of SCENARIOS) {
    await scenario.setup?.(ctx);
    await quietServer(pid);
    const r = await load(url, pid, scenario.requests(ctx), plan.durationSec, plan.warmupSec, {
      timeoutsAreMisses: scenario.timeoutsAreMisses,
    });
    const missedOnly = scenario.timeoutsAreMisses && r.non2xx === 0;
    if (r.non2xx > 0 || (r.errors > 0 && !missedOnly))
      throw new Error(`${scenario.name}: ${r.non2xx} non-2xx answer(s) ${JSON.stringify(r.statuses)}, ${r.errors} error(s)`);
    const extra = (await scenario.after?.(ctx, r)) ?? {};
    if (r.errors > 0) extra.timedOut = r.errors; // and the scenario is MISSED (report.ts)
    loads.push({ scenario, r, extra });
    log(
      `${scenario.name}: ${Math.round(r.rps)} rps, p95 ${r.p95Ms} ms, ${Math.round(r.cpuUsPerRequest)} µs ` +
        `server CPU/req${Object.keys(extra).length ? ` ${JSON.stringify(extra)}` : ""}`,
    );
  }
  return loads;
}
