/**
 * The web UI part of the benchmark (web.ts) alone, against a built binary on a fresh data
 * directory: `bun scripts/bench/web-alone.ts [--binary=dist/cairn] [--runs=N] [--timeline [--profile]]`.
 * A minute instead of a whole run, for work on the page view (take it under the shared lock:
 * FCP and LCP are timings). `--timeline` also prints, for one cold view, when each file and
 * API answer started and ended beside the paints: what the first paint waited for.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { killAll } from "./procs";
import { seedContext } from "./seed";
import { startCairn } from "./server";
import { measureWeb } from "./web";
import { coldTimeline } from "./web-timeline";

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const binary = resolve(option("binary") ?? join(import.meta.dir, "../../dist/cairn"));
const runs = Number(option("runs") ?? 7);
const out = join(import.meta.dir, "../../.bench");
mkdirSync(out, { recursive: true });
process.on("exit", killAll);

const cairn = await startCairn(binary, join(out, "web-alone.log"));
try {
  const ctx = await seedContext(cairn.url, true);
  const web = await measureWeb(ctx, { runs });
  for (const f of web.figures)
    console.log(`${f.figure}: ${f.value}${f.target ? ` (target ${f.target}${f.met === false ? ", MISSED" : ""})` : ""}`);
  if (args.includes("--timeline"))
    console.log(`\none cold view:\n${await coldTimeline(ctx, web.extras.webPagePath as string, args.includes("--profile"))}`);
} finally {
  await cairn.stop();
}
process.exit(0);
