/**
 * Child processes for the benchmark: every one is tracked so that a failure, Ctrl-C or the
 * run's deadline kills them all, and every wait has a deadline so nothing hangs.
 */
import type { Subprocess } from "bun";
import { closeSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";

export const HOST = "127.0.0.1";
const children = new Set<Subprocess>();
const tempDirs = new Set<string>();

/** A directory to delete when the run ends, however it ends. */
export function removeAtExit(dir: string): void {
  tempDirs.add(dir);
}

/** Kills every child still running and removes the temporary directories. */
export function killAll(): void {
  for (const child of children) child.kill("SIGKILL");
  children.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** Starts a process whose stdout and stderr append to `logPath` (the server logs every request). */
export function spawnLogged(cmd: string[], logPath: string, cwd?: string): Subprocess {
  const fd = openSync(logPath, "a");
  try {
    // env: Bun.spawn's default is the environment at start-up, without later process.env changes
    // (bench.ts sets CAIRN_OUTBOUND_ALLOW for the server).
    const child = Bun.spawn(cmd, { cwd, env: { ...process.env }, stdin: "ignore", stdout: fd, stderr: fd });
    children.add(child);
    child.exited.then(() => children.delete(child));
    return child;
  } finally {
    // The child holds its own copy of the descriptor.
    closeSync(fd);
  }
}

/** Runs a process to completion and answers its stdout; throws on a non-zero exit or timeout. */
export async function runCaptured(cmd: string[], timeoutMs: number, cwd?: string): Promise<string> {
  const child = Bun.spawn(cmd, { cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  children.add(child);
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  try {
    const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    if (code !== 0)
      throw new Error(
        `${cmd.slice(0, 3).join(" ")} exited with ${code}${child.signalCode ? ` (${child.signalCode})` : ""}: ${err.trim().slice(-2000)}`,
      );
    return out;
  } finally {
    clearTimeout(timer);
    children.delete(child);
  }
}

/** Asks the kernel for a free port by binding port 0 and releasing it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, HOST, () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 200; throws if the process exits first or the deadline passes. */
export async function waitFor200(url: string, child: Subprocess, timeoutMs: number, headers?: Record<string, string>): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`process exited (${child.exitCode ?? child.signalCode}) before ${url} answered`);
    try {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // Not listening yet: connection refused.
    }
    await Bun.sleep(1);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}

/** SIGTERM, then SIGKILL if it has not exited in time; answers the exit code (null if killed). */
export async function stop(child: Subprocess, graceMs = 5_000): Promise<number | null> {
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await child.exited;
  clearTimeout(timer);
  return child.signalCode ? null : child.exitCode;
}

/** Resident memory of a running process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
  if (!Number.isFinite(kb)) throw new Error(`no VmRSS for pid ${pid}`);
  return kb / 1024;
}

// USER_HZ: the unit of /proc/<pid>/stat times; 100 on every mainstream Linux build.
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used so far, in microseconds, from /proc (Linux). */
export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
  return (ticks / TICKS_PER_SECOND) * 1e6;
}

/**
 * CPU time of a process's live threads in nanoseconds, from /proc/<pid>/task/<tid>/schedstat
 * (Linux). Finer than cpuMicros's 10 ms ticks, so it can read a few milliseconds of idle work;
 * threads that have exited are not counted, so use it over spans where none start or end.
 */
export function threadsCpuNanos(pid: number): number {
  let total = 0;
  let read = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      read++;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  // None readable: a kernel without schedstat; NaN keeps the figure out rather than a false 0.
  return read ? total : Number.NaN;
}

/**
 * Holds `flock(1)` on `path` (the machine's shared timing lock) until the answer is called. The
 * flock process holds it (`-o`: its command does not inherit the lock) while its `cat` reads our
 * pipe: closing the pipe, or this process dying, ends both and so frees the lock.
 */
export async function takeLock(path: string, log: (line: string) => void): Promise<() => void> {
  const holder = Bun.spawn(["flock", "-o", path, "sh", "-c", "echo locked; exec cat >/dev/null"], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = holder.stdout.getReader();
  log(`waiting for ${path}`);
  let said = "";
  while (!said.includes("locked")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`flock ${path} ended before taking the lock`);
    said += new TextDecoder().decode(value);
  }
  log(`holding ${path}`);
  return () => {
    void holder.stdin.end();
    holder.kill("SIGTERM");
  };
}
