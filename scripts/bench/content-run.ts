/**
 * The content and side-effect benches' part of a run, kept out of bench.ts: seeding the
 * data directory before the server starts, and the one-off figures (seeding time, database
 * size, upload memory) for the printed table and results.json.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FigureRow } from "./report";
import { preSeed, type PreSeed } from "./seed-pages";
import { UPLOAD_RSS_TARGET_MB, type UploadSeries } from "./upload";

/** The seeding target: 100,000 pages in under 60 s; --quick seeds 10,000. */
export const SEED_PAGES = { full: 100_000, quick: 10_000 };
export const SEED_TARGET_SECONDS_PER_100K = 60;

export async function seedContent(quick: boolean, log: (line: string) => void): Promise<{ dataDir: string; pre: PreSeed }> {
  const dataDir = mkdtempSync(join(tmpdir(), "cairn-bench-"));
  const pages = quick ? SEED_PAGES.quick : SEED_PAGES.full;
  log(`seeding ${pages.toLocaleString("en")} pages through the service layer…`);
  const cpu0 = process.cpuUsage();
  const pre = await preSeed(dataDir, pages, log);
  const cpu = process.cpuUsage(cpu0);
  log(`seeding used ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s of CPU in all (TREE and BIG, documents included)`);
  return { dataDir, pre };
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export function contentFigures(pre: PreSeed, upload: UploadSeries): { figures: FigureRow[]; extras: Record<string, unknown> } {
  const pages = pre.big.pageIds.length;
  // The target is per 100,000 pages; a --quick run is held to the same rate.
  const targetSeconds = (SEED_TARGET_SECONDS_PER_100K * pages) / 100_000;
  const figures: FigureRow[] = [
    {
      figure: `seeding ${pages.toLocaleString("en")} pages (service layer)`,
      value: `${round(pre.seedSeconds)} s, ${Math.round(pre.pagesPerSecond)} pages/s (+${round(pre.generateSeconds)} s making documents)`,
      target: `< ${round(targetSeconds)} s`,
      met: pre.seedSeconds < targetSeconds,
    },
    { figure: `database size (${(pages + pre.tree.pageIds.length).toLocaleString("en")} pages)`, value: `${round(pre.dbSizeMb)} MB`, target: "", met: null },
    {
      figure: `upload ${upload.runs[0].uploadMb} MB: server RSS growth`,
      value: `median peak +${round(upload.medianGrowthMb)} MB of ${upload.runs.map((r) => `+${round(r.uploadRssGrowthMb)}`).join(", ")} (bare Bun.serve: +${round(upload.bareBunGrowthMb)})`,
      target: `< ${UPLOAD_RSS_TARGET_MB} MB`,
      met: upload.met,
    },
  ];
  const extras = {
    seedPages: pages,
    seedSeconds: round(pre.seedSeconds, 2),
    seedGenerateSeconds: round(pre.generateSeconds, 2),
    seedPagesPerSecond: Math.round(pre.pagesPerSecond),
    seedTargetSeconds: targetSeconds,
    seedMet: pre.seedSeconds < targetSeconds,
    dbSizeMb: round(pre.dbSizeMb),
    dbTableSizesMb: pre.tableSizesMb,
    uploadMb: upload.runs[0].uploadMb,
    uploadRssGrowthMb: round(upload.medianGrowthMb),
    uploadRuns: upload.runs.map((r) => ({ rssBeforeMb: round(r.rssBeforeMb), peakGrowthMb: round(r.uploadRssGrowthMb), afterGrowthMb: round(r.uploadRssAfterGrowthMb), seconds: round(r.uploadSeconds, 2) })),
    uploadBareBunGrowthMb: round(upload.bareBunGrowthMb),
    uploadMet: upload.met,
  };
  return { figures, extras };
}
