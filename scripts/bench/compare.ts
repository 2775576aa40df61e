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
import { formatComparison, type Side } from "./comparison";
import { flattenFigures, machineFactsBefore } from "./history";
import { removeAtExit, runCaptured } from "./procs";
import { runBench, type RunPlan } from "./run";

const root = join(import.meta.dir, "../..");
const INSTALL_TIMEOUT_MS = 600_000;
const BUILD_TIMEOUT_MS = 900_000;

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
  const machine = machineFactsBefore();
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
      {
        label: "this",
        commit: thisCommit + (dirty ? "+changes" : ""),
        sourceRoot: root,
        binary: mine.outfile,
        bytes: mine.bytes,
        runs: [],
      },
    ];
    for (let round = 1; round <= o.rounds; round++) {
      for (const side of sides) {
        const tag = `[${side.label} ${round}/${o.rounds}]`;
        const logDir = join(out, "compare", `${side.label}-${round}`);
        mkdirSync(logDir, { recursive: true });
        o.log(`${tag} ${side.commit.slice(0, 10)}: ${side.binary}`);
        const log = (line: string) => o.log(`${tag} ${line}`);
        const report = await runBench({
          binary: side.binary,
          binaryBytes: side.bytes,
          plan: o.plan,
          logDir,
          seed: () => seedContent(o.plan.quick, log, side.sourceRoot),
          log,
        }).catch((err: Error) => {
          // Our scenarios ask the other build's API too: one it lacks fails here, named.
          throw new Error(`${tag} ${side.commit.slice(0, 10)}: ${err.message}`, { cause: err });
        });
        side.runs.push(flattenFigures(report));
      }
    }
    const loadAfter = machineFactsBefore().loadBefore;
    const facts = { ...machine, loadAfter };
    writeFileSync(
      join(out, "compare.json"),
      JSON.stringify(
        {
          date: new Date().toISOString(),
          quick: o.plan.quick,
          machine: facts,
          sides: sides.map(({ label, commit, runs }) => ({ label, commit, runs })),
        },
        null,
        2,
      ) + "\n",
    );
    const where =
      `${facts.cores} cores (${facts.cpuModel}); load average ${facts.loadBefore.join(" / ")} before, ` +
      `${loadAfter.join(" / ")} after (1, 5, 15 minutes)`;
    return `${formatComparison(sides[0], sides[1])}\n${where}`;
  } finally {
    await removeWorktree(dir);
  }
}
