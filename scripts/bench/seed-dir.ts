/**
 * Seeds a data directory in a process of its own, with the service layer of a given source
 * tree: this checkout's for a plain run, the other commit's worktree for --compare (a database
 * is only sure to open in the binary built from the same tree). Runs that tree's own
 * scripts/bench/seed-pages.ts preSeed(dataDir, pages, log) and writes what it answers as JSON.
 *
 * Usage: bun scripts/bench/seed-dir.ts SOURCE_ROOT DATA_DIR PAGES OUT_JSON
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { PreSeed } from "./seed-pages";

const [root, dataDir, pagesArg, outJson] = process.argv.slice(2);
const pages = Number(pagesArg);
if (!root || !dataDir || !outJson || !Number.isInteger(pages) || pages <= 0)
  throw new Error("usage: seed-dir.ts SOURCE_ROOT DATA_DIR PAGES OUT_JSON");

const seeder = await import(join(resolve(root), "scripts/bench/seed-pages.ts"));
if (typeof seeder.preSeed !== "function") throw new Error(`${root} has no scripts/bench/seed-pages.ts preSeed(): too old to be compared`);
console.log(`seeding ${pages.toLocaleString("en")} pages through the service layer of ${root}…`);
const cpu0 = process.cpuUsage();
const pre: PreSeed = await seeder.preSeed(dataDir, pages, (line: string) => console.log(line));
const cpu = process.cpuUsage(cpu0);
console.log(`seeding used ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s of CPU in all (TREE and BIG, documents included)`);
// CPU seconds of the whole seeding (both spaces, documents made): steadier than its wall time
// on a shared machine. Beside PreSeed's own fields, so readers that do not know it ignore it.
writeFileSync(outJson, JSON.stringify({ ...pre, seedProcessCpuSeconds: Math.round((cpu.user + cpu.system) / 1e5) / 10 }));
// The instance's timers (jobs, search catch-up) may outlive close(): the work is done.
process.exit(0);
