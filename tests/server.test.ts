/**
 * The real executable path from source (`bun src/main.ts`): flags, data directory, a real
 * port, clean shutdown on SIGTERM, and refusal of a database from a newer Cairn.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { ROOT as root, startServerProcess } from "./server-process";

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "cairn-srv-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const start = (args: string[]) => startServerProcess(join(dir, "data"), args);

test("serves on a real port, and SIGTERM finishes cleanly with the WAL folded back", async () => {
  const { proc, url, reader } = await start([]);
  const health = await fetch(`${url}/api/health`);
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({ status: "ok", database: "ok" });
  const reg = await fetch(`${url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
    body: JSON.stringify({ email: "o@example.com", displayName: "O", password: "correct horse battery staple" }),
  });
  expect(reg.status).toBe(201);
  // The jobs worker starts just after listening (the first answer does not wait for it): its
  // upkeep at start has run once it shows as succeeded.
  const watch = new Database(join(dir, "data", "cairn.db"), { readonly: true });
  const upkeepDone = () => watch.query("SELECT 1 FROM jobs WHERE kind = 'notifications.upkeep' AND state = 'succeeded'").get() !== null;
  for (const end = Date.now() + 10_000; !upkeepDone() && Date.now() < end; ) await Bun.sleep(25);
  watch.close();
  proc.kill("SIGTERM");
  expect(await proc.exited).toBe(0);
  reader.releaseLock();
  const data = join(dir, "data");
  for (const f of ["cairn.db", "secret.key", "files", "backups", "tmp"]) expect(existsSync(join(data, f))).toBe(true);
  expect(!existsSync(join(data, "cairn.db-wal")) || statSync(join(data, "cairn.db-wal")).size === 0).toBe(true);
  const db = new Database(join(data, "cairn.db"), { readonly: true });
  expect(db.query("SELECT email FROM users").all()).toEqual([{ email: "o@example.com" }]);
  // The server's jobs worker ran the notifications' upkeep once at start (src/platform/jobs), and only once.
  expect(db.query("SELECT kind, state, attempts FROM jobs").all()).toEqual([
    { kind: "notifications.upkeep", state: "succeeded", attempts: 1 },
  ]);
  db.close();
});

test("routes loaded after listening: a request that comes before them waits, " +
  "none is a 404, and the first ones answer from the start", async () => {
  const { proc, url, reader } = await startServerProcess(join(dir, "data"), [], {}, { listening: true });
  // At once after the first answer, before the rest of the server has loaded (from source it
  // takes a while): the API reference, a domain of the rest, a method only the rest answers,
  // the web UI, a path no route has, and one of the first routes, all together.
  const [openapi, spaces, wrongMethod, page, missing, instance] = await Promise.all([
    fetch(`${url}/api/openapi.json`),
    fetch(`${url}/api/spaces`),
    fetch(`${url}/api/health`, { method: "PATCH", headers: { authorization: "Bearer nope" } }),
    fetch(`${url}/login`),
    fetch(`${url}/api/no-such-thing`),
    fetch(`${url}/api/instance`),
  ]);
  expect(openapi.status).toBe(200);
  expect(Object.keys(((await openapi.json()) as { paths: object }).paths)).toContain("/api/pages/{id}");
  expect(spaces.status).not.toBe(404);
  expect(wrongMethod.status).not.toBe(404);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toContain("text/html");
  expect(missing.status).toBe(404);
  expect(instance.status).toBe(200);
  proc.kill("SIGTERM");
  expect(await proc.exited).toBe(0);
  reader.releaseLock();
}, 20_000);

test("a database from a newer Cairn is refused at start with a clear message", async () => {
  const first = await start([]);
  first.proc.kill("SIGTERM");
  await first.proc.exited;
  const db = new Database(join(dir, "data", "cairn.db"));
  db.query("INSERT INTO __cairn_migrations VALUES ('9999_from_the_future', '2030-01-01')").run();
  db.close();
  const proc = Bun.spawn(["bun", "src/main.ts", "serve", "--data", join(dir, "data"), "--port", "0"], {
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(await proc.exited).toBe(2);
  expect(await new Response(proc.stderr).text()).toContain("newer version of Cairn");
});

test("cairn version prints the version; bad options exit 2 with help", async () => {
  const v = Bun.spawnSync(["bun", "src/main.ts", "version"], { cwd: root });
  expect(v.stdout.toString().trim()).toMatch(/^\d+\.\d+\.\d+/);
  const bad = Bun.spawnSync(["bun", "src/main.ts", "serve", "--colour", "red"], { cwd: root });
  expect(bad.exitCode).toBe(2);
  expect(bad.stderr.toString()).toContain("Unknown option --colour");
});
