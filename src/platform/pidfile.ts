/**
 * data/cairn.pid: the running server's process id, so a command that must not run beside it
 * (`cairn restore`) can tell. Written at start, removed at a clean stop; a file left by a crash
 * names a process that no longer exists (or one that is not Cairn's: pid reuse), and is ignored.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const pidPath = (dataDir: string) => join(dataDir, "cairn.pid");

export function writePidFile(dataDir: string): () => void {
  const path = pidPath(dataDir);
  writeFileSync(path, `${process.pid}\n`, { mode: 0o600 });
  return () => {
    try {
      if (readFileSync(path, "utf8").trim() === String(process.pid)) rmSync(path, { force: true });
    } catch {
      // already gone
    }
  };
}

/** The pid of a live server on this data directory, or null. */
export function runningServerPid(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(pidPath(dataDir), "utf8").trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists, run by another account (still a server in the way).
    if ((err as { code?: string }).code !== "EPERM") return null;
  }
  // A reused pid: on Linux, its command line says whether it is a Cairn process.
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    if (!/cairn|main\.ts|serve/i.test(cmdline)) return null;
  } catch {
    // no /proc (macOS): trust the live pid
  }
  return pid;
}
