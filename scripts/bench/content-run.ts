/**
 * The content and side-effect benches' part of a run, kept out of bench.ts: seeding the
 * data directory before the server starts, and the one-off figures (seeding time, database
 * size, upload memory) for the printed table and results.json.
 */
import { TARGETS } from "./targets";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeAtExit, runCaptured } from "./procs";
import type { FigureRow } from "./report";
import type { PreSeed } from "./seed-pages";
import { UPLOAD_RSS_TARGET_MB, type UploadSeries } from "./upload";

/** The seeding target: 100,000 pages in under 60 s; --quick seeds 10,000. */
export const SEED_PAGES = { full: 100_000, quick: 10_000 };
export const SEED_TARGET_SECONDS_PER_100K = TARGETS.seedSecondsPer100k;
const SEED_TIMEOUT_MS = 600_000;

/** What seed-dir.ts answers: the PreSeed, and the seeding process's CPU time. */
export type SeededPre = PreSeed & { seedProcessCpuSeconds?: number };

/**
 * Seeds a fresh data directory with the service layer of `sourceRoot` (this checkout unless
 * comparing with another commit), in a child process (seed-dir.ts), so the bench process does
 * not carry the seeding's memory and both sides of a comparison seed the same way.
 */
export async function seedContent(
  quick: boolean,
  log: (line: string) => void,
  sourceRoot = join(import.meta.dir, "../.."),
): Promise<{ dataDir: string; pre: SeededPre }> {
  const dataDir = mkdtempSync(join(tmpdir(), "cairn-bench-"));
  removeAtExit(dataDir);
  const outDir = mkdtempSync(join(tmpdir(), "cairn-seed-"));
  try {
    const outJson = join(outDir, "pre.json");
    const pages = quick ? SEED_PAGES.quick : SEED_PAGES.full;
    const out = await runCaptured(
      ["bun", join(import.meta.dir, "seed-dir.ts"), sourceRoot, dataDir, String(pages), outJson],
      SEED_TIMEOUT_MS,
      sourceRoot,
    );
    for (const line of out.trim().split("\n")) log(line);
    return { dataDir, pre: JSON.parse(readFileSync(outJson, "utf8")) as SeededPre };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export function contentFigures(pre: SeededPre, upload: UploadSeries): { figures: FigureRow[]; extras: Record<string, unknown> } {
  const pages = pre.big.pageIds.length;
  // The target is per 100,000 pages; a --quick run is held to the same rate.
  const targetSeconds = (SEED_TARGET_SECONDS_PER_100K * pages) / 100_000;
  const figures: FigureRow[] = [
    {
      figure: `seeding ${pages.toLocaleString("en")} pages (service layer)`,
      value:
        `${round(pre.seedSeconds)} s, ${Math.round(pre.pagesPerSecond)} pages/s (+${round(pre.generateSeconds)} s making ` +
        `documents)${pre.seedProcessCpuSeconds === undefined ? "" : `; ${pre.seedProcessCpuSeconds} s of CPU for the whole seeding`}`,
      target: `< ${round(targetSeconds)} s`,
      met: pre.seedSeconds < targetSeconds,
    },
    {
      figure: `database size (${(pages + pre.tree.pageIds.length).toLocaleString("en")} pages)`,
      value: `${round(pre.dbSizeMb)} MB`,
      target: "",
      met: null,
    },
    {
      figure: `upload ${upload.runs[0].uploadMb} MB: server RSS growth`,
      value:
        `median peak +${round(upload.medianGrowthMb)} MB of ${upload.runs.map((r) => `+${round(r.uploadRssGrowthMb)}`).join(", ")} ` +
        `(bare Bun.serve: +${round(upload.bareBunGrowthMb)})`,
      target: `< ${UPLOAD_RSS_TARGET_MB} MB`,
      met: upload.met,
    },
  ];
  const extras = {
    seedPages: pages,
    seedSeconds: round(pre.seedSeconds, 2),
    seedGenerateSeconds: round(pre.generateSeconds, 2),
    seedProcessCpuSeconds: pre.seedProcessCpuSeconds,
    seedPagesPerSecond: Math.round(pre.pagesPerSecond),
    seedTargetSeconds: targetSeconds,
    seedMet: pre.seedSeconds < targetSeconds,
    dbSizeMb: round(pre.dbSizeMb),
    dbTableSizesMb: pre.tableSizesMb,
    uploadMb: upload.runs[0].uploadMb,
    uploadRssGrowthMb: round(upload.medianGrowthMb),
    uploadRuns: upload.runs.map((r) => ({
      rssBeforeMb: round(r.rssBeforeMb),
      peakGrowthMb: round(r.uploadRssGrowthMb),
      afterGrowthMb: round(r.uploadRssAfterGrowthMb),
      seconds: round(r.uploadSeconds, 2),
    })),
    uploadBareBunGrowthMb: round(upload.bareBunGrowthMb),
    uploadMet: upload.met,
  };
  return { figures, extras };
}
