/**
 * An idle server writes nothing (docs/decisions.md, "An idle server writes nothing"): a real process, left alone once its start-up
 * work has settled, changes neither its database nor its log (size and mtime), and opens no
 * write transaction, not even an empty one: while this test holds the database's write lock
 * from outside, the server keeps answering at once (a write transaction of the server would
 * wait for the lock, up to its busy timeout, and hold its event loop meanwhile). Idle CPU is
 * printed for the record, not asserted: this machine is shared.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServerProcess, type ServerProcess } from "./server-process";

let dir: string;
let server: ServerProcess;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cairn-idle-"));
  server = await startServerProcess(dir);
});
afterAll(async () => {
  server?.proc.kill();
  await server?.proc.exited;
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The database and its log: size and mtime (the -shm is shared memory, touched by reads). */
function files(): string {
  return ["cairn.db", "cairn.db-wal"]
    .map((name) => {
      try {
        const s = statSync(join(dir, name));
        return `${name} ${s.size} ${s.mtimeMs}`;
      } catch {
        return `${name} absent`;
      }
    })
    .join("; ");
}

/** CPU time of the server process so far (utime + stime), in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

const health = async () => (await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(2_000) })).status;

test("an idle server writes nothing and opens no write transaction", async () => {
  expect(await health()).toBe(200);
  // From source the web UI is bundled just after start: asking for it waits for that work.
  await fetch(`${server.url}/login`).then((r) => r.arrayBuffer());
  await sleep(2_000);

  const before = files();
  const cpu0 = cpuMs(server.proc.pid);
  const t0 = performance.now();
  await sleep(3_500);
  const idleCpu = ((cpuMs(server.proc.pid) - cpu0) / (performance.now() - t0)) * 1000;
  expect(files()).toBe(before);
  console.log(`idle CPU: ${idleCpu.toFixed(1)} ms/s`);

  // The write lock, held from outside for several of the jobs worker's polls (one a second).
  const db = new Database(join(dir, "cairn.db"));
  try {
    db.exec("PRAGMA busy_timeout = 0");
    db.exec("BEGIN IMMEDIATE");
    for (let i = 0; i < 6; i++) {
      await sleep(600);
      expect(await health()).toBe(200);
    }
    db.exec("ROLLBACK");
  } finally {
    db.close();
  }
  expect(files()).toBe(before);
}, 30_000);
