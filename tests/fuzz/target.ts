/**
 * The server being fuzzed: a real Cairn process (`bun src/main.ts serve`, or a built binary)
 * on a free loopback port, its output in a log file (a pipe nobody drains would fill and stall
 * it after a few hundred requests). A crash is one finding among others, so the target can be
 * started again on the same data directory and the run goes on; its resident memory is sampled
 * the whole time.
 */
import type { Subprocess } from "bun";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { encode, send } from "./client";

export const ROOT = join(import.meta.dir, "..", "..");

/**
 * The server starts at about 110 MB. Under the fuzz its peak was 300-365 MB on 2 cores: the
 * garbage of 2 MB bodies, 100,000-element arrays and large documents, kept until the collector
 * next runs, so the peak moves with its timing; MAX_RSS_MB is well above that and far below what
 * a body read whole or a leak costs (before bodies had limits, the CI run took 2 GB). Once quiet
 * the server collects (platform/idle-gc.ts). It was back near 160 MB when this was written; with
 * the features since it starts at ~107 MB and settles at 221-252 MB after the fuzz (fifteen runs
 * on 2 cores, 2026-11-24/25, before and after the title-word and newest-pages search indexes alike:
 * 242-245 and 244-252), so 250 MB had become a coin toss. Staying above SETTLED_RSS_MB would mean
 * it keeps what the requests left behind.
 */
export const MAX_RSS_MB = 512;
export const SETTLED_RSS_MB = 300;
const START_TIMEOUT_MS = 30_000;

/** Whatever ends this process (a test runner's timeout, Ctrl-C) leaves no server behind. */
const running = new Set<Subprocess>();
process.on("exit", () => {
  for (const proc of running) proc.kill("SIGKILL");
});

export interface TargetOptions {
  dataDir: string;
  logPath: string;
  /** The executable and its leading arguments; `bun src/main.ts` from the repository unless set. */
  command?: string[];
}

export class Target {
  proc!: Subprocess;
  port = 0;
  /** Bumped at every start, so a crash is handled once however many requests saw it. */
  generation = 0;
  maxRssMb = 0;
  /** Resident memory just after the first start answered its health check. */
  startRssMb = 0;
  /** When the last process ended (performance.now()), to look for its cause just before. */
  exitedAt = 0;
  private closed = false;
  private probes = 0;
  private sampler: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly opts: TargetOptions) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.closed) return; // stop() was called while a crash was being looked into
    if (this.proc && this.alive()) this.proc.kill("SIGKILL"); // never two at once, never one left behind
    this.port = await freePort();
    const fd = openSync(this.opts.logPath, "a");
    try {
      const command = this.opts.command ?? ["bun", "src/main.ts"];
      this.proc = Bun.spawn([...command, "serve", "--data", this.opts.dataDir, "--port", String(this.port), "--host", "127.0.0.1"], {
        cwd: ROOT,
        env: { ...process.env, CAIRN_TEST: "1" },
        stdin: "ignore",
        stdout: fd,
        stderr: fd,
      });
    } finally {
      closeSync(fd); // the child has its own copy
    }
    this.generation++;
    const proc = this.proc;
    running.add(proc);
    proc.exited.then(() => {
      running.delete(proc);
      if (proc === this.proc) this.exitedAt = performance.now();
    });
    await this.waitForHealth();
    if (this.generation === 1) this.startRssMb = this.rssMb();
    this.sampleMemory();
  }

  alive(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** How the process ended, for the report. */
  exitDescription(): string {
    return this.proc.signalCode ? `killed by ${this.proc.signalCode}` : `exit code ${this.proc.exitCode}`;
  }

  /** Reads VmRSS now; the maximum over the whole run is kept. */
  rssMb(): number {
    if (!this.alive()) return 0;
    try {
      const kb = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${this.proc.pid}/status`, "utf8"))?.[1] ?? 0);
      this.maxRssMb = Math.max(this.maxRssMb, kb / 1024);
      return kb / 1024;
    } catch {
      return 0; // exited between the check and the read
    }
  }

  /**
   * Resident memory once the server has been quiet long enough to collect its garbage
   * (platform/idle-gc.ts): polled until under `boundMb` or `timeoutMs` passes, last reading.
   */
  async settledRssMb(boundMb: number, timeoutMs: number): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    let rss = this.rssMb();
    while (rss >= boundMb && performance.now() < deadline) {
      await Bun.sleep(250);
      rss = this.rssMb();
    }
    return rss;
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearInterval(this.sampler);
    if (!this.proc || !this.alive()) return;
    this.proc.kill("SIGTERM");
    const timer = setTimeout(() => this.proc.kill("SIGKILL"), 5_000);
    await this.proc.exited;
    clearTimeout(timer);
  }

  /** Error-level lines the server logged (an error it swallowed is still a bug). */
  loggedErrors(): Array<{ msg: string; error?: string; path?: string }> {
    if (!existsSync(this.opts.logPath)) return [];
    return readFileSync(this.opts.logPath, "utf8")
      .split("\n")
      .filter((line) => line.includes('"level":"error"'))
      .map((line) => {
        try {
          return JSON.parse(line);
        } catch {
          return { msg: line.slice(0, 300) };
        }
      });
  }

  private sampleMemory(): void {
    clearInterval(this.sampler);
    this.rssMb();
    // Frequent enough to see a spike from one request (a 2 MB body parses in milliseconds, but
    // its garbage stays until the next collection).
    this.sampler = setInterval(() => this.rssMb(), 50);
    this.sampler.unref();
  }

  private async waitForHealth(): Promise<void> {
    const deadline = performance.now() + START_TIMEOUT_MS;
    while (performance.now() < deadline) {
      if (!this.alive())
        throw new Error(`the server exited (${this.exitDescription()}) before answering /api/health; see ${this.opts.logPath}`);
      // From an address of its own: after a restart the fuzz may have left the anonymous rate
      // limit at 1 a minute. Not listening yet is no answer.
      const n = this.probes++ % 60_000;
      const health = await send(this.port, encode({ method: "GET", target: "/api/health", headers: [] }), {
        from: `127.2.${Math.floor(n / 240) + 1}.${(n % 240) + 2}`,
        timeoutMs: 2_000,
      });
      if (health.status === 200) return;
      await Bun.sleep(20);
    }
    throw new Error(`the server did not answer /api/health within ${START_TIMEOUT_MS / 1000} s`);
  }
}

/** Asks the kernel for a free port by binding port 0 and releasing it. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
