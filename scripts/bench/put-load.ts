/**
 * The write path against a real server, alone: `bun scripts/bench/put-load.ts [--binary=PATH]
 * [--pages=2000] [--seconds=8] [--side] [--prof=DIR] [--dir=PATH] [--from=SEEDED]`.
 *
 * Seeds `pages` pages through the service layer (seed-pages.ts, timed: the seeding figure for
 * that many pages), starts the server on them (the binary, or this checkout's source with
 * `bun`, under --cpu-prof when --prof names a directory), then runs the bench's PUT load
 * (content-scenarios.ts: 32 connections, a new version of one of 64 pages each time) and, with
 * --side, the side-effects load (20 watchers, 3 webhooks; side-effect-scenarios.ts). Prints
 * rps and the server's CPU time per PUT read from /proc. --from names a directory seeded once
 * by seed-dir.ts (SEEDED/data and SEEDED/pre.json, e.g. 100,000 pages): it is copied for the
 * run instead of seeding again. On a shared machine compare runs made
 * close together, alternating builds, and take timings under the shared lock.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load } from "./load";
import { freePort, HOST, spawnLogged, stop, waitFor200 } from "./procs";
import { preSeed, type PreSeed } from "./seed-pages";
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
const from = flag("from");

/**
 * Bytes of WAL archived so far (backups/wal/…): what the writes cost the archive, a figure that
 * does not depend on a quiet machine. Meaningless (near 0 or below) when an automatic base backup
 * pruned the archive during the load: on small databases, every quarter of 64 MB archived.
 */
function archivedBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

const dataDir = mkdtempSync(join(flag("dir") ?? tmpdir(), "cairn-put-load-"));
try {
  let pre: PreSeed;
  if (from) {
    cpSync(join(from, "data"), dataDir, { recursive: true });
    pre = JSON.parse(readFileSync(join(from, "pre.json"), "utf8"));
    console.log(`copied ${pre.big.pageIds.length} seeded pages from ${from}`);
  } else {
    pre = await preSeed(dataDir, pages);
    console.log(`seeded ${pages} pages in ${pre.seedSeconds.toFixed(2)} s (${Math.round((pre.seedSeconds / pages) * 1e6)} µs/page)`);
  }

  process.env.CAIRN_OUTBOUND_ALLOW = HOST;
  const port = await freePort();
  const serve = ["serve", "--data", dataDir, "--host", HOST, "--port", String(port)];
  const cmd = binary
    ? [binary, ...serve]
    : ["bun", ...(prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : []), join(root, "src/main.ts"), ...serve];
  const child = spawnLogged(cmd, join(dataDir, "..", `put-load-${port}.log`));
  const url = `http://${HOST}:${port}`;
  try {
    await waitFor200(`${url}/api/health`, child, 20_000);
    const ctx = await seedContext(url, true, true);
    ctx.shared.preSeed = pre;
    const scenarios = [CONTENT_SCENARIOS.find((s) => s.name.startsWith("PUT"))!, ...(args.includes("--side") ? SIDE_EFFECT_SCENARIOS : [])];
    for (const scenario of scenarios) {
      await scenario.setup?.(ctx);
      const walDir = join(dataDir, "backups", "wal");
      const archived = archivedBytes(walDir);
      const r = await load(url, child.pid, scenario.requests(ctx), seconds, 1);
      const extra = (await scenario.after?.(ctx, r)) ?? {};
      // The search catch-up of the last writes is archived shortly after: waited for.
      await Bun.sleep(500);
      const perRequest = (archivedBytes(walDir) - archived) / Math.max(1, (r as { responses?: number }).responses ?? r.rps * seconds);
      console.log(
        `${scenario.name}: ${Math.round(r.rps)} rps, p95 ${r.p95Ms} ms, ${Math.round(r.cpuUsPerRequest)} µs server CPU/req, ` +
          `${r.non2xx} non-2xx, ~${Math.round(perRequest / 1024)} KB of WAL archived/req ${JSON.stringify(extra)}`,
      );
    }
  } finally {
    await stop(child, 20_000);
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
