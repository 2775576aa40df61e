/**
 * Cold start and idle memory of a built binary, alone: `bun scripts/bench/startup-probe.ts
 * [--binary=dist/cairn] [--runs=7] [--idle-ms=5000] [--smaps]`. Each run starts the binary on a
 * fresh data directory and times exec → first 200 from /api/health (with the server's CPU by
 * then); the last run then stays idle and its RSS is read, with the resident memory of each
 * kind of mapping (--smaps). Timings only mean something under the bench lock
 * (`flock /tmp/cairn-bench.lock bun scripts/bench/startup-probe.ts`).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpuMicros, freePort, HOST, killAll, rssMb, spawnLogged, stop, threadsCpuNanos, waitFor200 } from "./procs";
import { median } from "./server";

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const binary = arg("binary", join(import.meta.dir, "../../dist/cairn"));
const runs = Number(arg("runs", "7"));
const idleMs = Number(arg("idle-ms", "5000"));

/** Resident kB per kind of mapping (the executable, anonymous, heap, other files). */
function residentByMapping(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  let name = "";
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      name = head[1] || "[anon]";
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[name] = (out[name] ?? 0) + Number(rss[1]);
  }
  return out;
}

const walls: number[] = [];
const cpus: number[] = [];
// Finer than the 10 ms ticks of /proc/<pid>/stat: the live threads' schedstat (exited ones not counted).
const threadCpus: number[] = [];
const logPath = join(tmpdir(), `cairn-startup-probe-${process.pid}.log`);
try {
  for (let i = 0; i < runs; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), "cairn-probe-"));
    const port = await freePort();
    const t0 = performance.now();
    const child = spawnLogged([binary, "serve", "--data", dataDir, "--host", HOST, "--port", String(port)], logPath, tmpdir());
    await waitFor200(`http://${HOST}:${port}/api/health`, child, 10_000);
    walls.push(performance.now() - t0);
    cpus.push(cpuMicros(child.pid) / 1000);
    threadCpus.push(threadsCpuNanos(child.pid) / 1e6);
    if (i === runs - 1) {
      await Bun.sleep(idleMs);
      console.log(`idle RSS ${idleMs / 1000} s after start: ${rssMb(child.pid).toFixed(1)} MB`);
      console.log(
        readFileSync(`/proc/${child.pid}/smaps_rollup`, "utf8")
          .split("\n")
          .filter((l) => /^(Rss|Pss|Shared_Clean|Private_Clean|Private_Dirty|Anonymous):/.test(l))
          .join("\n"),
      );
      if (process.argv.includes("--smaps")) {
        const byName = Object.entries(residentByMapping(child.pid))
          .sort((a, b) => b[1] - a[1])
          .slice(0, 12);
        for (const [name, kb] of byName) console.log(`  ${(kb / 1024).toFixed(1).padStart(6)} MB  ${name}`);
      }
    }
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`cold start ms: ${walls.map((w) => w.toFixed(1)).join(", ")}; median ${median(walls).toFixed(1)}`);
  console.log(`CPU at first 200 ms: ${cpus.map((c) => Math.round(c)).join(", ")}; median ${median(cpus)}`);
  console.log(
    `CPU at first 200 ms (live threads, schedstat): ` +
      `${threadCpus.map((c) => c.toFixed(1)).join(", ")}; median ${median(threadCpus).toFixed(1)}`,
  );
} finally {
  killAll();
  rmSync(logPath, { force: true });
}
