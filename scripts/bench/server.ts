/**
 * Starting the built binary the way a user does: `cairn serve` on a fresh data directory, run
 * from an unrelated working directory (so it proves the migrations are embedded).
 */
import type { Subprocess } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpuMicros, freePort, HOST, removeAtExit, spawnLogged, stop, waitFor200 } from "./procs";

const START_TIMEOUT_MS = 10_000;

export interface RunningCairn {
  child: Subprocess;
  url: string;
  /** SIGTERM and wait; answers the exit code (0 is a clean shutdown) and removes the data dir. */
  stop(): Promise<number | null>;
}

/** Spawns the binary and answers once the port is open (or the start timed out). */
async function spawnCairn(binary: string, logPath: string, givenDataDir?: string): Promise<RunningCairn & { startedAt: number }> {
  const dataDir = givenDataDir ?? mkdtempSync(join(tmpdir(), "cairn-bench-"));
  removeAtExit(dataDir);
  const port = await freePort();
  const startedAt = performance.now();
  const child = spawnLogged([binary, "serve", "--data", dataDir, "--host", HOST, "--port", String(port)], logPath, tmpdir());
  return {
    child,
    startedAt,
    url: `http://${HOST}:${port}`,
    async stop() {
      const code = await stop(child);
      rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

async function startCairnTimed(binary: string, logPath: string, dataDir?: string) {
  const cairn = await spawnCairn(binary, logPath, dataDir);
  try {
    await waitFor200(`${cairn.url}/api/health`, cairn.child, START_TIMEOUT_MS);
  } catch (err) {
    await cairn.stop();
    throw err;
  }
  // CPU the server used to get there (all threads, exited ones included): start-up work that
  // wall time on a busy machine hides.
  return { ...cairn, readyAt: performance.now(), startupCpuMs: cpuMicros(cairn.child.pid) / 1000 };
}

/** `dataDir`: a directory seeded beforehand (seed-pages.ts); removed by stop() all the same. */
export const startCairn = (binary: string, logPath: string, dataDir?: string): Promise<RunningCairn> =>
  startCairnTimed(binary, logPath, dataDir);

/**
 * Time from exec to the first 200 from GET /api/health, on a fresh data directory (so it
 * includes creating the database and running the migrations), `runs` times. `cpuMs` receives
 * each run's server CPU time (utime + stime) at that first 200.
 */
export async function coldStarts(binary: string, logPath: string, runs: number, cpuMs: number[] = []): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const cairn = await startCairnTimed(binary, logPath);
    times.push(cairn.readyAt - cairn.startedAt);
    cpuMs.push(cairn.startupCpuMs);
    const code = await cairn.stop();
    if (code !== 0) throw new Error(`cold-start run ${i + 1}: exit code ${code} after SIGTERM (see ${logPath})`);
  }
  return times;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
