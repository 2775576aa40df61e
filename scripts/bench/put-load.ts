/**
 * The write path against a real server, alone: `bun scripts/bench/put-load.ts [--binary=PATH]
 * [--pages=2000] [--seconds=8] [--side] [--prof=DIR] [--dir=PATH]`.
 *
 * Seeds `pages` pages through the service layer (seed-pages.ts, timed: the seeding figure for
 * that many pages), starts the server on them (the binary, or this checkout's source with
 * `bun`, under --cpu-prof when --prof names a directory), then runs the bench's PUT load
 * (content-scenarios.ts: 32 connections, a new version of one of 64 pages each time) and, with
 * --side, the side-effects load (20 watchers, 3 webhooks; side-effect-scenarios.ts). Prints
 * rps and the server's CPU time per PUT read from /proc: on a shared machine compare runs made
 * close together, alternating builds, and take timings under the shared lock.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load } from "./load";
import { freePort, HOST, spawnLogged, stop, waitFor200 } from "./procs";
import { preSeed } from "./seed-pages";
import { seedContext } from "./seed";
import { CONTENT_SCENARIOS } from "./content-scenarios";
import { SIDE_EFFECT_SCENARIOS } from "./side-effect-scenarios";

const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const pages = Number(flag("pages") ?? 2000);
const seconds = Number(flag("seconds") ?? 8);
const binary = flag("binary");
const prof = flag("prof");
const root = join(import.meta.dir, "../..");

const dataDir = mkdtempSync(join(flag("dir") ?? tmpdir(), "cairn-put-load-"));
try {
  const pre = await preSeed(dataDir, pages);
  console.log(`seeded ${pages} pages in ${pre.seedSeconds.toFixed(2)} s (${Math.round((pre.seedSeconds / pages) * 1e6)} µs/page)`);

  process.env.CAIRN_OUTBOUND_ALLOW = HOST;
  const port = await freePort();
  const serve = ["serve", "--data", dataDir, "--host", HOST, "--port", String(port)];
  const cmd = binary ? [binary, ...serve] : ["bun", ...(prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : []), join(root, "src/main.ts"), ...serve];
  const child = spawnLogged(cmd, join(dataDir, "..", `put-load-${port}.log`));
  const url = `http://${HOST}:${port}`;
  try {
    await waitFor200(`${url}/api/health`, child, 20_000);
    const ctx = await seedContext(url, true, true);
    ctx.shared.preSeed = pre;
    const scenarios = [CONTENT_SCENARIOS.find((s) => s.name.startsWith("PUT"))!, ...(args.includes("--side") ? SIDE_EFFECT_SCENARIOS : [])];
    for (const scenario of scenarios) {
      await scenario.setup?.(ctx);
      const r = await load(url, child.pid, scenario.requests(ctx), seconds, 1);
      const extra = (await scenario.after?.(ctx, r)) ?? {};
      console.log(`${scenario.name}: ${Math.round(r.rps)} rps, p95 ${r.p95Ms} ms, ${Math.round(r.cpuUsPerRequest)} µs server CPU/req, ${r.non2xx} non-2xx ${JSON.stringify(extra)}`);
    }
  } finally {
    await stop(child, 20_000);
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
