/**
 * The benchmark's history: every full `bun run bench` appends one JSON line to
 * bench/history.jsonl (committed), and every run prints each figure's change against the
 * previous entry of its kind. Quick runs (10,000 pages, 3-second loads) are not comparable with
 * full ones, so they keep a history of their own in .bench/history-quick.jsonl (git-ignored).
 *
 * An entry's keys are stable: { v, commit, subject, dirty, date, quick, machine, figures },
 * figures a flat map from a figure's name to a number (flattenFigures).
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { cpus, loadavg, release, totalmem } from "node:os";
import { dirname, join } from "node:path";
import type { BenchReport } from "./report";

const root = join(import.meta.dir, "../..");
export const HISTORY_FILE = join(root, "bench/history.jsonl");
export const QUICK_HISTORY_FILE = join(root, ".bench/history-quick.jsonl");

export interface MachineFacts {
  cores: number;
  cpuModel: string;
  memoryGb: number;
  kernel: string;
  bun: string;
  /** 1-, 5- and 15-minute load averages just before the run and just after it. */
  loadBefore: number[];
  loadAfter: number[];
}

export interface HistoryEntry {
  v: 1;
  commit: string;
  subject: string;
  /** Tracked files differed from the commit: the figures are of that commit plus changes. */
  dirty: boolean;
  date: string;
  quick: boolean;
  machine: MachineFacts;
  figures: Record<string, number>;
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
const loads = () => loadavg().map((l) => round(l, 2));

/** Taken before the run starts: the load then says how busy the machine was beforehand. */
export function machineFactsBefore(): Omit<MachineFacts, "loadAfter"> {
  return {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model ?? "unknown",
    memoryGb: round(totalmem() / 1024 ** 3, 1),
    kernel: release(),
    bun: Bun.version,
    loadBefore: loads(),
  };
}

function git(args: string[]): string {
  const r = Bun.spawnSync(["git", ...args], { cwd: root, stdout: "pipe", stderr: "pipe" });
  return r.exitCode === 0 ? r.stdout.toString().trim() : "";
}

export function commitFacts(): { commit: string; subject: string; dirty: boolean } {
  // The history file itself changes with every run; it does not make the build differ.
  const changed = git(["status", "--porcelain", "--untracked-files=no"])
    .split("\n")
    .filter((l) => l && !l.endsWith("bench/history.jsonl"));
  return { commit: git(["rev-parse", "HEAD"]) || "unknown", subject: git(["log", "-1", "--format=%s"]), dirty: changed.length > 0 };
}

/** Keys never worth a line: per-run lists are summarised elsewhere; table sizes are a breakdown. */
const SKIPPED = new Set(["dbTableSizesMb", "seedTargetSeconds"]);

function addLeaves(into: Record<string, number>, prefix: string, value: unknown, depth: number): void {
  if (typeof value === "number" && Number.isFinite(value)) into[prefix] = value;
  else if (value && typeof value === "object" && !Array.isArray(value) && depth < 4) {
    for (const [k, v] of Object.entries(value)) if (!SKIPPED.has(k)) addLeaves(into, prefix ? `${prefix}.${k}` : k, v, depth + 1);
  }
}

/**
 * Every numeric figure of a run under a stable name: the top-level ones, each scenario's as
 * "<scenario name> · <figure>", then the numbers in the extras (seeding, uploads, web UI,
 * search, collaboration, backup, export/import) by their dotted path. Lists and flags are left out.
 */
export function flattenFigures(r: BenchReport): Record<string, number> {
  const out: Record<string, number> = {
    binaryMb: round(r.binaryMb, 1),
    coldStartMs: round(r.coldStartMs, 1),
    idleRssMb: round(r.idleRssMb, 1),
    "baseline · rps": round(r.baselineRps, 1),
    "baseline · cpuUsPerRequest": round(r.baselineCpuUs, 1),
  };
  for (const s of r.scenarios) {
    const figures = {
      rps: round(s.rps, 1),
      p50Ms: s.p50Ms,
      p95Ms: s.p95Ms,
      p99Ms: s.p99Ms,
      cpuUsPerRequest: round(s.cpuUsPerRequest, 1),
      ratioToBaseline: round(s.ratioToBaseline, 3),
      ...s.extra,
    };
    for (const [k, v] of Object.entries(figures)) if (typeof v === "number" && Number.isFinite(v)) out[`${s.name} · ${k}`] = v;
  }
  addLeaves(out, "", r.extras ?? {}, 0);
  return out;
}

export function makeEntry(r: BenchReport, quick: boolean, before: Omit<MachineFacts, "loadAfter">): HistoryEntry {
  return {
    v: 1,
    ...commitFacts(),
    date: new Date().toISOString(),
    quick,
    machine: { ...before, loadAfter: loads() },
    figures: flattenFigures(r),
  };
}

export function readHistory(path: string): HistoryEntry[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as HistoryEntry);
}

export function appendEntry(path: string, entry: HistoryEntry): void {
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, JSON.stringify(entry) + "\n");
}

/**
 * Which way is better, read from the name's unit: requests and pages per second and shares of
 * the baseline up; times, sizes, memory and CPU down. Counts (deliveries, edits…) are neither.
 */
export function betterWhen(name: string): "higher" | "lower" | null {
  const afterScenario = name.includes(" · ") ? name.slice(name.lastIndexOf(" · ") + 3) : name;
  const leaf = afterScenario.slice(afterScenario.lastIndexOf(".") + 1);
  if (/(^rps$|PerSecond$|ratioToBaseline$|^all$|hitRate)/i.test(leaf) || /hitRate\./.test(name)) return "higher";
  if (/(Ms|Mb|MB|Kb|KB|Us|UsPerRequest|Seconds)$/.test(leaf) || /^(p\d+|max|mean|median)/.test(leaf)) return "lower";
  return null;
}

const fmtNumber = (n: number) => (Math.abs(n) >= 100 ? String(Math.round(n)) : String(round(n, Math.abs(n) >= 10 ? 1 : 3)));

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** Changes beyond this are named again under the table. */
const WORTH_NAMING = 0.1;

/** Each figure of `now` beside the same figure of `prev`, with the change in per cent. */
export function formatChange(prev: HistoryEntry, now: Record<string, number>): string {
  const rows = [["figure", "before", "now", "change", ""]];
  const worse: string[] = [];
  for (const [name, value] of Object.entries(now)) {
    const was = prev.figures[name];
    if (was === undefined) {
      rows.push([name, "—", fmtNumber(value), "new", ""]);
      continue;
    }
    const change = was === 0 ? (value === 0 ? 0 : Infinity) : (value - was) / Math.abs(was);
    const better = betterWhen(name);
    const word = change === 0 || better === null ? "" : change > 0 === (better === "higher") ? "better" : "worse";
    const percent = Number.isFinite(change) ? `${change >= 0 ? "+" : ""}${(change * 100).toFixed(1)} %` : "—";
    rows.push([name, fmtNumber(was), fmtNumber(value), percent, word]);
    if (word === "worse" && Math.abs(change) > WORTH_NAMING) worse.push(`${name} ${percent}`);
  }
  const gone = Object.keys(prev.figures).filter((name) => !(name in now));
  const head =
    `change against ${prev.commit.slice(0, 10)}${prev.dirty ? " (with uncommitted changes)" : ""} of ${prev.date} ` +
    `(${prev.quick ? "quick" : "full"} run; load ${prev.machine.loadBefore[0]} on ${prev.machine.cores} cores):`;
  const tail = [
    gone.length ? `no longer measured: ${gone.join(", ")}` : "",
    worse.length
      ? `worse by more than ${WORTH_NAMING * 100} % (check against the load average ` +
        `before reading much into rps or latency): ${worse.join("; ")}`
      : "",
  ];
  return [head, table(rows), ...tail.filter(Boolean)].join("\n");
}
