/**
 * The benchmark's output: a table for people and .bench/results.json for tools (its shape is
 * fixed; later work compares runs through it).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname } from "node:path";

import { TARGETS } from "./targets";

export const COLD_START_TARGET_MS = TARGETS.coldStartMs;
export const IDLE_RSS_TARGET_MB = TARGETS.idleRssMb;

export interface ScenarioRow {
  name: string;
  rps: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  ratioToBaseline: number;
  /** Server CPU per request: unlike rps, not skewed by the loader or by neighbours. */
  cpuUsPerRequest: number;
  target: string;
  met: boolean;
  /** What the scenario's after() measured (deliveries, latency one at a time…). */
  extra?: Record<string, number | string | boolean>;
}

/** A one-off figure printed beside cold start and idle RSS (seeding time, database size, upload memory). */
export interface FigureRow {
  figure: string;
  value: string;
  target: string;
  /** null: reported only, no target. */
  met: boolean | null;
}

export interface BenchReport {
  /** Mean of the runs before and after the scenarios. */
  baselineRps: number;
  baselineRunsRps: number[];
  baselineCpuUs: number;
  coldStartMs: number;
  coldStartRunsMs: number[];
  idleRssMb: number;
  binaryMb: number;
  scenarios: ScenarioRow[];
  /** 1-minute load average at the start and the end: timings on a busy machine are rough. */
  machineLoad: number[];
  figures?: FigureRow[];
  /** Written as top-level fields of results.json (seedSeconds, dbSizeMb, uploadRssGrowthMb…). */
  extras?: Record<string, unknown>;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export function writeResults(path: string, r: BenchReport): void {
  const json = {
    baseline: { rps: round(r.baselineRps), cpuUsPerRequest: round(r.baselineCpuUs) },
    coldStartMs: round(r.coldStartMs),
    idleRssMb: round(r.idleRssMb),
    binaryMb: round(r.binaryMb),
    ...r.extras,
    scenarios: r.scenarios.map((s) => ({
      name: s.name,
      rps: round(s.rps),
      p50Ms: round(s.p50Ms, 3),
      p95Ms: round(s.p95Ms, 3),
      p99Ms: round(s.p99Ms, 3),
      ratioToBaseline: round(s.ratioToBaseline, 3),
      cpuUsPerRequest: round(s.cpuUsPerRequest),
      target: s.target,
      met: s.met,
      ...s.extra,
    })),
  };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(json, null, 2) + "\n");
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(rows[0]), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

const verdict = (met: boolean | null) => (met === null ? "" : met ? "met" : "MISSED");

/** Answers the printed report and whether every target was met. */
export function formatReport(r: BenchReport): { text: string; allMet: boolean } {
  const coldMet = r.coldStartMs < COLD_START_TARGET_MS;
  const rssMet = r.idleRssMb < IDLE_RSS_TARGET_MB;
  const binaryMet = r.binaryMb < TARGETS.binaryMb;
  const summary = table([
    ["figure", "value", "target", ""],
    ["binary size", `${round(r.binaryMb)} MB`, `< ${TARGETS.binaryMb} MB`, verdict(binaryMet)],
    ["cold start (median)", `${round(r.coldStartMs)} ms`, `< ${COLD_START_TARGET_MS} ms`, verdict(coldMet)],
    ["idle RSS", `${round(r.idleRssMb)} MB`, `< ${IDLE_RSS_TARGET_MB} MB`, verdict(rssMet)],
    ["baseline (bare Bun.serve)", `${Math.round(r.baselineRps)} rps, ${round(r.baselineCpuUs)} µs CPU/req`, "", ""],
    ...(r.figures ?? []).map((f) => [f.figure, f.value, f.target, verdict(f.met)]),
  ]);
  const load = table([
    ["scenario", "rps", "p50 ms", "p95 ms", "p99 ms", "CPU µs/req", "of baseline", "target", ""],
    ...r.scenarios.map((s) => [
      s.name,
      String(Math.round(s.rps)),
      fmt(s.p50Ms),
      fmt(s.p95Ms),
      fmt(s.p99Ms),
      String(round(s.cpuUsPerRequest)),
      `${round(s.ratioToBaseline * 100)} %`,
      s.target,
      verdict(s.met),
    ]),
  ]);
  const all = [
    binaryMet,
    coldMet,
    rssMet,
    ...(r.figures ?? []).flatMap((f) => (f.met === null ? [] : [f.met])),
    ...r.scenarios.map((s) => s.met),
  ];
  const extras = r.scenarios
    .filter((s) => s.extra && Object.keys(s.extra).length)
    .map(
      (s) =>
        `${s.name}: ${Object.entries(s.extra!)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")}`,
    );
  const met = all.filter(Boolean).length;
  const [before, after] = r.baselineRunsRps;
  const drift = Math.abs(before - after) / Math.max(before, after);
  const runs = [
    `cold-start runs: ${r.coldStartRunsMs.map((ms) => round(ms)).join(", ")} ms`,
    `baseline runs: ${Math.round(before)} then ${Math.round(after)} rps` +
      (drift > 0.2 ? " (differ by more than 20 %: the machine was busy, ratios are rough)" : ""),
    `machine load: ${r.machineLoad.map((l) => l.toFixed(2)).join(" then ")} (1-minute average) on ${cpus().length} cores`,
  ].join("\n");
  const notes = extras.length ? `\n\n${extras.join("\n")}` : "";
  return { text: `${summary}\n${runs}\n\n${load}${notes}\n\n${met} of ${all.length} targets met`, allMet: met === all.length };
}

const fmt = (ms: number) => ms.toFixed(ms < 10 ? 3 : 1);
