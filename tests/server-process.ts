/**
 * A real Cairn process from source (`bun src/main.ts serve`) on a free port, for tests that
 * need the whole executable path: sockets, signals, the process surviving what it is sent.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..");

export interface ServerProcess {
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  url: string;
  port: number;
  reader: ReadableStreamDefaultReader<Uint8Array>;
  /** Everything the process printed so far, once the stream is drained. */
  output(): Promise<string>;
}

/**
 * Answers once the server has loaded every route (server.ts loads most just after listening;
 * from source that takes a while, which a test's own timeout should not pay for), or with
 * `{ listening: true }` as soon as it listens.
 */
export async function startServerProcess(
  dataDir: string,
  args: string[] = [],
  env: Record<string, string> = {},
  opts: { listening?: boolean } = {},
): Promise<ServerProcess> {
  const proc = Bun.spawn(["bun", "src/main.ts", "serve", "--data", dataDir, "--port", "0", ...args], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, ...env },
  });
  const reader = proc.stdout.getReader();
  let out = "";
  const until = opts.listening ? /"msg":"listening"/ : /"msg":"ready: /;
  while (!until.test(out)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited: ${out}${await new Response(proc.stderr).text()}`);
    out += new TextDecoder().decode(value);
  }
  const url = JSON.parse(out.split("\n").find((l) => l.includes('"listening"'))!).url as string;
  let drained: Promise<string> | null = null;
  const output = () =>
    (drained ??= (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return out;
        out += new TextDecoder().decode(value);
      }
    })());
  return { proc, url, port: Number(new URL(url).port), reader, output };
}

/** A real server on a fresh scratch directory (its data in `<dir>/data`), for a file of tests. */
export async function startInScratch(prefix: string): Promise<{ dir: string; server: ServerProcess }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, server: await startServerProcess(join(dir, "data")) };
}

/** Stops it (SIGTERM, waiting for the exit) and removes its scratch directory. */
export async function stopAndRemove(server: ServerProcess | undefined, dir: string | undefined): Promise<void> {
  if (server) {
    server.proc.kill("SIGTERM");
    await server.proc.exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
}
