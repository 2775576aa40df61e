/**
 * Runs one load: the Node loader (loader.mjs, autocannon) in its own process, so that the
 * generator and the server under test are separate processes as in production.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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

/** loader.mjs gives up on a request after this long (autocannon's `timeout: 10`). */
export const REQUEST_TIMEOUT_MS = 10_000;

/**
 * `timeoutsAreMisses`: when every request timed out (and none was refused), answer the figures
 * anyway, with the latencies at REQUEST_TIMEOUT_MS (a lower bound), instead of throwing.
 */
export async function load(
  url: string,
  serverPid: number,
  requests: LoadRequest[],
  durationSec: number,
  warmupSec: number,
  opts: { timeoutsAreMisses?: boolean } = {},
): Promise<LoadResult> {
  const spec = { url, connections: CONNECTIONS, durationSec, warmupSec, requests };
  // A mix with large bodies (PUTs of whole pages) exceeds what one argument may hold (128 KB
  // on Linux): the loader then reads the spec from a file, named as @path.
  let arg = JSON.stringify(spec);
  const specDir = arg.length > 64 * 1024 ? mkdtempSync(join(tmpdir(), "cairn-load-")) : null;
  if (specDir) {
    writeFileSync(join(specDir, "spec.json"), arg);
    arg = `@${join(specDir, "spec.json")}`;
  }
  const cpuBefore = cpuMicros(serverPid);
  let out: string;
  try {
    // Bounded: the loader stops itself after warm-up + duration; the margin covers Node's start.
    out = await runCaptured(["node", LOADER, arg], (durationSec + warmupSec + 30) * 1000);
  } finally {
    if (specDir) rmSync(specDir, { recursive: true, force: true });
  }
  const cpu = cpuMicros(serverPid) - cpuBefore;
  const result = JSON.parse(out) as LoadResult & { responses: number };
  if (result.ok === 0 && opts.timeoutsAreMisses && result.non2xx === 0 && result.errors > 0) {
    const floor = REQUEST_TIMEOUT_MS;
    return { ...result, p50Ms: floor, p95Ms: floor, p99Ms: floor, cpuUsPerRequest: result.responses ? cpu / result.responses : Number.NaN };
  }
  if (result.ok === 0) throw new Error(`no 2xx answer from ${url}: ${JSON.stringify(result.statuses)}, ${result.errors} error(s)`);
  return { ...result, cpuUsPerRequest: cpu / result.responses };
}
