/**
 * What the server's own log says about the findings. Every 500 is logged as "unhandled error"
 * with its stack: grouped by where it was thrown, they are the root causes behind a long list of
 * failing requests. Any other error-level line (an uncaught exception the process survived, a
 * failed background job) is a finding no answer shows.
 */
import type { Target } from "./target";

/** "message at src/file.ts:line" for each distinct error, with how often it was logged. */
function signatures(lines: Array<{ msg: string; error?: string; path?: string }>): string[] {
  const counts = new Map<string, number>();
  for (const line of lines) {
    const stack = (line.error ?? "").split("\n");
    const frame = stack
      .find((l) => /\/src\//.test(l))
      ?.trim()
      .replace(/^at .*?\(?(?=\/)/, "at ")
      .replace(/\)$/, "");
    const key =
      `${line.msg}: ${stack[0].slice(0, 200)}${frame ? ` ${frame.replace(/^.*\/src\//, "at src/")}` : ""}` +
      `${line.path && line.msg !== "unhandled error" ? ` (${line.path})` : ""}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => `${n}× ${key}`);
}

export function serverErrors(target: Target): string[] {
  return signatures(target.loggedErrors().filter((l) => l.msg === "unhandled error"));
}

export function unexplainedErrors(target: Target): string[] {
  return signatures(target.loggedErrors().filter((l) => l.msg !== "unhandled error"));
}
