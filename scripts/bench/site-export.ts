/**
 * The static site export of a big space, in-process: seeds PAGES pages (sample documents of 500
 * words, 100 top-level pages, 10 children each below; seed-pages.ts), then streams
 * GET …/export/site's zip to a file as a client would, timing it and sampling the resident
 * memory every 50 ms. Target (docs/decisions.md, "Speed targets"): 10,000 pages under 40 s, memory
 * growth under 100 MB.
 *
 *   bun scripts/bench/site-export.ts [--pages=10000] [--keep]
 * Answers one JSON line: pages, seconds (wall) and CPU seconds (all threads), MB of zip, peak RSS growth over the baseline taken
 * (after a full GC) just before the export, and the largest files of the site.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { openInstance } from "../../src/instance";
import { loadConfig } from "../../src/platform/config";
import { silentLogger } from "../../src/platform/log";
import { createSpace } from "../../src/commands/create-space";
import { register } from "../../src/users/service";
import { exportSite } from "../../src/exports/site-service";
import { ownerCaller, seedSpacePages } from "./seed-pages";
import { OWNER } from "./seed";

export interface SiteExportFigures {
  pages: number;
  seconds: number;
  /** CPU time of the process meanwhile (all threads): what the wall time would be on an idle core. */
  cpuSeconds: number;
  zipMb: number;
  rssGrowthMb: number;
  searchIndexMb: number;
  treeMb: number;
}

/** Streams the site export of `key` into `file`; answers the time and the peak RSS growth. */
export async function measureSiteExport(run: () => ReadableStream<Uint8Array>, file: string) {
  Bun.gc(true);
  const base = process.memoryUsage.rss();
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const writer = Bun.file(file).writer();
  const reader = run().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    writer.write(value);
    await writer.flush();
  }
  await writer.end();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  return { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, rssGrowthMb: (peak - base) / 1024 / 1024 };
}

if (import.meta.main) {
  const pages = Number(process.argv.find((a) => a.startsWith("--pages="))?.slice(8) ?? 10_000);
  const dir = mkdtempSync(join(tmpdir(), "cairn-site-bench-"));
  const core = openInstance(loadConfig(["--data", dir], {}), { log: silentLogger });
  try {
    const { user } = await register(core, { ...OWNER, ip: "127.0.0.1" });
    const owner = ownerCaller(core, user.id);
    const space = createSpace(core, owner, { key: "SITE", name: "Site bench" });
    const seeded = await seedSpacePages(core, owner, space.id, pages, { roots: 100, fanout: 10, seedBase: 0 });
    console.error(`seeded ${pages} pages in ${seeded.serviceSeconds.toFixed(1)} s`);
    const file = join(dir, "site.zip");
    const m = await measureSiteExport(() => exportSite(core, owner, "SITE").stream, file);
    const zip = unzipSync(new Uint8Array(await Bun.file(file).arrayBuffer()), { filter: (f) => f.name.startsWith("_site/") });
    const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
    const figures: SiteExportFigures = {
      pages,
      seconds: Math.round(m.seconds * 10) / 10,
      cpuSeconds: Math.round(m.cpuSeconds * 10) / 10,
      zipMb: mb(statSync(file).size),
      rssGrowthMb: Math.round(m.rssGrowthMb),
      searchIndexMb: mb(zip["_site/search-index.js"]!.byteLength),
      treeMb: mb(zip["_site/tree.js"]!.byteLength),
    };
    console.log(JSON.stringify(figures));
  } finally {
    core.close();
    if (!process.argv.includes("--keep")) rmSync(dir, { recursive: true, force: true });
  }
}
