/**
 * Runs one load: the Node loader (loader.mjs, autocannon) in its own process, so that the
 * generator and the server under test are separate processes as in production.
 */
import { join } from "node:path";
import { cpuMicros, runCaptured } from "./procs";
import type { LoadFigures, LoadRequest } from "./scenarios";

const LOADER = join(import.meta.dir, "loader.mjs");
export const CONNECTIONS = 32;

export interface LoadResult extends LoadFigures {
  ok: number;
  non2xx: number;
  errors: number;
  statuses: Record<string, number>;
  /**
   * Server CPU time per request (µs). On a small machine the loader and the server share the
   * cores, so rps also depends on the loader and on neighbours; this figure does not.
   */
  cpuUsPerRequest: number;
}

export async function load(url: string, serverPid: number, requests: LoadRequest[], durationSec: number, warmupSec: number): Promise<LoadResult> {
  const spec = { url, connections: CONNECTIONS, durationSec, warmupSec, requests };
  const cpuBefore = cpuMicros(serverPid);
  // Bounded: the loader stops itself after warm-up + duration; the margin covers Node's start.
  const out = await runCaptured(["node", LOADER, JSON.stringify(spec)], (durationSec + warmupSec + 30) * 1000);
  const cpu = cpuMicros(serverPid) - cpuBefore;
  const result = JSON.parse(out) as LoadResult & { responses: number };
  if (result.ok === 0) throw new Error(`no 2xx answer from ${url}: ${JSON.stringify(result.statuses)}, ${result.errors} error(s)`);
  return { ...result, cpuUsPerRequest: cpu / result.responses };
}
