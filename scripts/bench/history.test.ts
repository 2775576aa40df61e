import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatComparison, type Side } from "./comparison";
import {
  appendEntry,
  betterWhen,
  flattenFigures,
  formatChange,
  makeEntry,
  machineFactsBefore,
  readHistory,
  type HistoryEntry,
} from "./history";
import type { BenchReport } from "./report";

const report: BenchReport = {
  baselineRps: 20_000,
  baselineRunsRps: [19_000, 21_000],
  baselineCpuUs: 40,
  coldStartMs: 120,
  coldStartRunsMs: [118, 120, 125],
  idleRssMb: 70,
  binaryMb: 115.04,
  scenarios: [
    {
      name: "GET /api/auth/me (token)",
      rps: 9_000,
      p50Ms: 2,
      p95Ms: 4,
      p99Ms: 6,
      ratioToBaseline: 0.45,
      cpuUsPerRequest: 95.44,
      target: "",
      met: true,
      extra: { deliveries: 3, note: "text" },
    },
  ],
  machineLoad: [0.5, 0.7],
  extras: {
    seedSeconds: 85.5,
    dbTableSizesMb: { pages: 12 },
    firstTimeSearch: { one: { p95Ms: 17, count: 300 } },
    uploadRuns: [{ seconds: 1 }],
    uploadMet: true,
  },
};

describe("bench history", () => {
  test("figures are flat, numeric and named stably", () => {
    const f = flattenFigures(report);
    expect(f).toMatchObject({ binaryMb: 115, coldStartMs: 120, "baseline · rps": 20_000, "baseline · cpuUsPerRequest": 40 });
    expect(f["GET /api/auth/me (token) · cpuUsPerRequest"]).toBe(95.4);
    expect(f["GET /api/auth/me (token) · deliveries"]).toBe(3);
    expect(f["firstTimeSearch.one.p95Ms"]).toBe(17);
    expect(f.seedSeconds).toBe(85.5);
    // Lists, flags, text and breakdowns stay out.
    expect(Object.keys(f).some((k) => /uploadRuns|uploadMet|note|dbTableSizesMb/.test(k))).toBe(false);
  });

  test("which way is better is read from the unit", () => {
    expect(betterWhen("GET /api/auth/me (token) · rps")).toBe("higher");
    expect(betterWhen("seedPagesPerSecond")).toBe("higher");
    expect(betterWhen("PUT page · cpuUsPerRequest")).toBe("lower");
    expect(betterWhen("firstTimeSearch.one.p95Ms")).toBe("lower");
    expect(betterWhen("keptAnswers.hitRate.all")).toBe("higher");
    expect(betterWhen("PUT page · deliveries")).toBe(null);
  });

  test("an entry is appended as one line and the next run is compared with it", () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-history-"));
    try {
      const file = join(dir, "history.jsonl");
      const first = makeEntry(report, false, machineFactsBefore());
      expect(first.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(first.machine.cores).toBeGreaterThan(0);
      appendEntry(file, first);
      appendEntry(file, { ...first, date: "later" });
      const entries = readHistory(file);
      expect(entries.map((e) => e.date)).toEqual([first.date, "later"]);

      const now = { ...first.figures, coldStartMs: 60, "GET /api/auth/me (token) · rps": 7_200, added: 1 };
      delete (now as Record<string, number>).seedSeconds;
      const text = formatChange(entries.at(-1) as HistoryEntry, now);
      expect(text).toMatch(/coldStartMs\s+120\s+60\s+-50\.0 %\s+better/);
      expect(text).toMatch(/GET \/api\/auth\/me \(token\) · rps\s+9000\s+7200\s+-20\.0 %\s+worse/);
      expect(text).toMatch(/worse by more than 10 % .*: GET \/api\/auth\/me \(token\) · rps -20\.0 %$/m);
      expect(text).toMatch(/added\s+—\s+1\s+new/);
      expect(text).toContain("no longer measured: seedSeconds");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a comparison calls a change only when the rounds do not overlap", () => {
    const side = (label: "ref" | "this", runs: Array<Record<string, number>>): Side => ({
      label,
      commit: label === "ref" ? "a".repeat(40) : "b".repeat(40),
      sourceRoot: "",
      binary: "",
      bytes: 0,
      runs,
    });
    const text = formatComparison(
      side("ref", [
        { "PUT · cpuUsPerRequest": 1_600, "PUT · rps": 600 },
        { "PUT · cpuUsPerRequest": 1_560, "PUT · rps": 640 },
      ]),
      side("this", [
        { "PUT · cpuUsPerRequest": 900, "PUT · rps": 610 },
        { "PUT · cpuUsPerRequest": 910, "PUT · rps": 700 },
      ]),
    );
    expect(text).toMatch(/PUT · cpuUsPerRequest\s+1580\s+905\s+0\.573\s+±1\.3 %\s+better/);
    expect(text).toMatch(/PUT · rps\s+620\s+655\s+1\.056\s+±6\.9 %$/m);
  });
});
