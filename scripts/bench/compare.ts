/**
 * `bun run bench --compare <ref>`: this checkout against another commit, on the same machine in
 * the same minutes. The other commit is checked out in a temporary git worktree, installed
 * (`bun install --frozen-lockfile`) and built with its own build script; then the two binaries
 * run alternately (ref, this, ref, this… `--rounds=N`, at least 2 each), every run on a data
 * directory seeded by its own commit's service layer with the same shape. Prints each figure
 * for both (median of the rounds), the ratio this/ref and the spread between rounds, and writes
 * .bench/compare.json.
 */
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "../build";
import { seedContent } from "./content-run";
import { betterWhen, flattenFigures } from "./history";
import { removeAtExit, runCaptured } from "./procs";
import { runBench, type RunPlan } from "./run";
import { median } from "./server";

const root = join(import.meta.dir, "../..");
const INSTALL_TIMEOUT_MS = 600_000;
const BUILD_TIMEOUT_MS = 900_000;

export interface Side {
  label: "ref" | "this";
  commit: string;
  sourceRoot: string;
  binary: string;
  bytes: number;
  runs: Array<Record<string, number>>;
}

const git = (args: string[]) => runCaptured(["git", ...args], 60_000, root).then((s) => s.trim());

/** Checks out `commit` beside this one, installs its dependencies and builds its binary. */
async function buildOther(commit: string, dir: string, log: (line: string) => void): Promise<{ binary: string; bytes: number }> {
  log(`checking out ${commit.slice(0, 10)} in ${dir}…`);
  await git(["worktree", "add", "--detach", dir, commit]);
  log("bun install --frozen-lockfile…");
  await runCaptured(["bun", "install", "--frozen-lockfile"], INSTALL_TIMEOUT_MS, dir);
  log("building it with its own build script (bun run build)…");
  await runCaptured(["bun", "run", "build"], BUILD_TIMEOUT_MS, dir);
  const binary = join(dir, "dist/cairn");
  if (!existsSync(binary)) throw new Error(`${commit.slice(0, 10)}: bun run build wrote no dist/cairn`);
  return { binary, bytes: statSync(binary).size };
}

async function removeWorktree(dir: string): Promise<void> {
  await git(["worktree", "remove", "--force", dir]).catch(() => rmSync(dir, { recursive: true, force: true }));
  await git(["worktree", "prune"]).catch(() => {});
}

export interface CompareOptions {
  ref: string;
  rounds: number;
  plan: RunPlan;
  log(line: string): void;
}

export async function runCompare(o: CompareOptions): Promise<string> {
  const out = join(root, ".bench");
  const refCommit = await git(["rev-parse", "--verify", `${o.ref}^{commit}`]);
  const thisCommit = await git(["rev-parse", "HEAD"]);
  const dirty = (await git(["status", "--porcelain", "--untracked-files=no"])).length > 0;
  const dir = join(out, `compare-${refCommit.slice(0, 10)}`);
  if (existsSync(dir)) await removeWorktree(dir); // left over from a run that was killed
  await git(["worktree", "prune"]);
  removeAtExit(dir); // if the run is interrupted; the next one prunes git's note of it
  mkdirSync(out, { recursive: true });
  try {
    const other = await buildOther(refCommit, dir, o.log);
    o.log("building this checkout…");
    const mine = await build({ quiet: true });
    const sides: Side[] = [
      { label: "ref", commit: refCommit, sourceRoot: dir, binary: other.binary, bytes: other.bytes, runs: [] },
      { label: "this", commit: thisCommit + (dirty ? "+changes" : ""), sourceRoot: root, binary: mine.outfile, bytes: mine.bytes, runs: [] },
    ];
    for (let round = 1; round <= o.rounds; round++) {
      for (const side of sides) {
        const tag = `[${side.label} ${round}/${o.rounds}]`;
        const logDir = join(out, "compare", `${side.label}-${round}`);
        mkdirSync(logDir, { recursive: true });
        o.log(`${tag} ${side.commit.slice(0, 10)}: ${side.binary}`);
        const log = (line: string) => o.log(`${tag} ${line}`);
        const report = await runBench({ binary: side.binary, binaryBytes: side.bytes, plan: o.plan, logDir, seed: () => seedContent(o.plan.quick, log, side.sourceRoot), log });
        side.runs.push(flattenFigures(report));
      }
    }
    writeFileSync(join(out, "compare.json"), JSON.stringify({ date: new Date().toISOString(), quick: o.plan.quick, sides: sides.map(({ label, commit, runs }) => ({ label, commit, runs })) }, null, 2) + "\n");
    return formatComparison(sides[0], sides[1]);
  } finally {
    await removeWorktree(dir);
  }
}

const fmt = (n: number) => (Math.abs(n) >= 100 ? String(Math.round(n)) : String(Math.round(n * 1000) / 1000));

/**
 * One row per figure: the median of each side's rounds, the ratio this/ref, and the noise —
 * the larger of the two sides' spreads ((max − min) / median between its rounds). A change is
 * marked significant only when the two sides' ranges do not overlap.
 */
export function formatComparison(ref: Side, mine: Side): string {
  const rows = [["figure", `ref ${ref.commit.slice(0, 10)}`, `this ${mine.commit.slice(0, 10)}`, "this/ref", "noise", ""]];
  let significant = 0;
  for (const name of Object.keys(mine.runs[0])) {
    const a = ref.runs.map((r) => r[name]).filter((v) => v !== undefined);
    const b = mine.runs.map((r) => r[name]);
    if (a.length === 0) {
      rows.push([name, "—", fmt(median(b)), "", "", "ref lacks it"]);
      continue;
    }
    const [ma, mb] = [median(a), median(b)];
    const spread = (v: number[], m: number) => (m === 0 ? 0 : (Math.max(...v) - Math.min(...v)) / Math.abs(m));
    const noise = Math.max(spread(a, ma), spread(b, mb));
    const apart = Math.min(...b) > Math.max(...a) || Math.max(...b) < Math.min(...a);
    const better = betterWhen(name);
    const word = !apart ? "" : better === null ? "differs" : (mb > ma) === (better === "higher") ? "better" : "worse";
    if (apart) significant++;
    rows.push([name, fmt(ma), fmt(mb), ma === 0 ? "—" : (mb / ma).toFixed(3), `±${(noise * 50).toFixed(1)} %`, word]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const text = rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ").trimEnd()).join("\n");
  return [
    text,
    `medians of ${ref.runs.length} runs each, run alternately (ref, this, ref, this…). noise: ± half the larger spread between one side's runs;`,
    `better/worse only where every run of one side lies beyond every run of the other (${significant} figures). Server CPU per request is the steadiest figure; rps and latencies on a shared machine are rough.`,
  ].join("\n");
}
