/**
 * How the binary starts and fails to start, from source as a person runs it: each failure is
 * one line saying what happened and what to do, exit code 2, and no stack trace (--debug
 * prints it). Read-only and full disks are small tmpfs mounts made for the test (root only).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, startServerProcess } from "./server-process";

let dir: string;
const mounts: string[] = [];
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "cairn-start-"))));
afterAll(() => {
  for (const m of mounts) Bun.spawnSync(["umount", "-l", m]);
  rmSync(dir, { recursive: true, force: true });
});

function cairn(args: string[]) {
  const run = Bun.spawnSync(["bun", "src/main.ts", ...args], { cwd: ROOT, timeout: 20_000 });
  return { code: run.exitCode, out: run.stdout.toString(), err: run.stderr.toString() };
}

/** A tmpfs of `size` at a fresh path, or null where this machine does not allow mounting. */
function tmpfs(size: string, readOnly = false): string | null {
  const at = join(dir, `mnt-${mounts.length}`);
  mkdirSync(at);
  const ok = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", `size=${size}${readOnly ? ",ro" : ""}`, "tmpfs", at]).exitCode === 0;
  if (!ok) return null;
  mounts.push(at);
  return at;
}

function expectOneClearLine(run: ReturnType<typeof cairn>, message: RegExp) {
  expect(run.code).toBe(2);
  const lines = run.err.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^cairn: /);
  expect(lines[0]).toMatch(message);
  expect(run.err).not.toContain("    at ");
}

describe("the usual spellings", () => {
  test.each(["--version", "-v", "version"])("%s prints the version", (flag) => {
    const run = cairn([flag]);
    expect(run.code).toBe(0);
    expect(run.out.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  test.each(["--help", "-h", "help", "serve --help"])("%s prints the usage", (args) => {
    const run = cairn(args.split(" "));
    expect(run.code).toBe(0);
    expect(run.out).toContain("Usage:");
    expect(run.out).toContain("--trusted-proxies");
  });

  test("an option without its value says so", () => {
    expectOneClearLine(cairn(["--port", "--data", join(dir, "x")]), /Option --port needs a value/);
  });
});

describe("start-up failures are one line and exit 2", () => {
  test("a data directory that is a file", () => {
    const file = join(dir, "a-file");
    writeFileSync(file, "not a directory");
    expectOneClearLine(cairn(["serve", "--data", file, "--port", "0"]), /is a file, not a directory/);
  });

  test("a port in use is found before the data directory is created", async () => {
    const holder = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    try {
      const data = join(dir, "never-made");
      expectOneClearLine(
        cairn(["serve", "--data", data, "--port", String(holder.port)]),
        new RegExp(`Port ${holder.port} on 127.0.0.1 is already in use`),
      );
      expect(existsSync(data)).toBe(false);
    } finally {
      holder.stop(true);
    }
  });

  test("a read-only disk", () => {
    const at = tmpfs("1m", true);
    if (!at) return console.warn("skipped: this machine does not allow mounting a tmpfs");
    expectOneClearLine(cairn(["serve", "--data", join(at, "data"), "--port", "0"]), /read-only file system/);
  });

  test("a full disk, and --debug adds the details", () => {
    const at = tmpfs("256k");
    if (!at) return console.warn("skipped: this machine does not allow mounting a tmpfs");
    expectOneClearLine(cairn(["serve", "--data", join(at, "data"), "--port", "0"]), /disk holding the data directory .* is full/);
    const debug = cairn(["serve", "--data", join(at, "data"), "--port", "0", "--debug"]);
    expect(debug.code).toBe(2);
    expect(debug.err).toContain("SQLITE_FULL");
  });
});

describe("the data directory is private", () => {
  test("created 0700 with cairn.db and secret.key 0600; an exposed one is warned about at start", async () => {
    const data = join(dir, "private");
    const first = await startServerProcess(data);
    first.proc.kill("SIGTERM");
    await first.proc.exited;
    expect(statSync(data).mode & 0o777).toBe(0o700);
    for (const f of ["cairn.db", "secret.key"]) expect(statSync(join(data, f)).mode & 0o777).toBe(0o600);
    expect(statSync(join(data, "files")).mode & 0o777).toBe(0o700);
    expect(await first.output()).not.toContain("can be read by other accounts");
    chmodSync(data, 0o755);
    const second = await startServerProcess(data);
    second.proc.kill("SIGTERM");
    await second.proc.exited;
    const log = await second.output();
    expect(log).toContain("can be read by other accounts");
    expect(log).toContain(`chmod -R go-rwx ${data}`);
  });
});
