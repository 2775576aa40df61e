/**
 * A process's resident memory read from /proc (Linux), for the tests that hold the server to a
 * memory bound under a hostile load: the figure is the kernel's, not the runtime's own estimate.
 */
import { readFileSync } from "node:fs";

/** Resident set size in MB (VmRSS), or NaN where /proc cannot be read. */
export function rssMb(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith("VmRSS:"));
    return line ? Number(line.replace(/\D+/g, "")) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * Runs `work` while sampling the process's RSS every `everyMs`; answers the work's result, the
 * RSS before and the highest seen (also after the work, once more).
 */
export async function peakRssDuring<T>(
  pid: number,
  work: () => Promise<T>,
  everyMs = 25,
): Promise<{ result: T; before: number; peak: number }> {
  const before = rssMb(pid);
  let peak = before;
  const timer = setInterval(() => {
    const now = rssMb(pid);
    if (now > peak) peak = now;
  }, everyMs);
  try {
    const result = await work();
    peak = Math.max(peak, rssMb(pid));
    return { result, before, peak };
  } finally {
    clearInterval(timer);
  }
}
