/**
 * What the server leaves until just after it listens (server.ts, finishOpening): the WAL
 * archive's first look at the log and the built-in rows. A health check is answered without
 * them; any other request, and the moment after listening, find them done.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "./platform/config";
import { silentLogger } from "./platform/log";
import { startServer, type RunningServer } from "./server";
import { roles } from "./users/tables";
import { groups } from "./groups/tables";

let server: RunningServer | null = null;
let dir = "";

const start = () => {
  dir = mkdtempSync(join(tmpdir(), "cairn-opening-"));
  server = startServer(loadConfig(["--data", dir, "--host", "127.0.0.1", "--port", "0"], {}), { log: silentLogger });
  return server;
};
const archiveBegun = () => existsSync(join(dir, "backups", "wal", "state.json"));
const builtInRows = (s: RunningServer) => [s.core.db.select().from(roles).all().length, s.core.db.select().from(groups).all().length];

afterEach(async () => {
  await server?.stop();
  server = null;
  rmSync(dir, { recursive: true, force: true });
});

test("a health check is answered before the archive begins and the built-in rows are written; the next request finds both", async () => {
  const s = start();
  const startedAt = performance.now();
  expect(archiveBegun()).toBe(false);
  expect(builtInRows(s)).toEqual([0, 0]);
  expect((await fetch(`${s.url}/api/health`)).status).toBe(200);
  // Unless the machine was too busy to answer before the moment after listening came.
  if (performance.now() - startedAt < 200) expect(archiveBegun()).toBe(false);
  const instance = await fetch(`${s.url}/api/instance`);
  expect(instance.status).toBe(200);
  expect(((await instance.json()) as { needsOwner: boolean }).needsOwner).toBe(true);
  expect(archiveBegun()).toBe(true);
  const [roleRows, groupRows] = builtInRows(s);
  expect(roleRows).toBeGreaterThan(0);
  expect(groupRows).toBeGreaterThan(0);
  // The schema's frames (written before listening) are in the archive's first generation.
  const generation = readdirSync(join(dir, "backups", "wal")).find((name) => name !== "state.json")!;
  expect(readdirSync(join(dir, "backups", "wal", generation)).some((name) => name.endsWith(".frames"))).toBe(true);
});

test("with no request at all, both are done just after listening", async () => {
  const s = start();
  expect(archiveBegun()).toBe(false);
  for (let i = 0; i < 100 && !archiveBegun(); i++) await Bun.sleep(20);
  expect(archiveBegun()).toBe(true);
  expect(builtInRows(s)[0]).toBeGreaterThan(0);
});

test("stopped before then, the archive still closes cleanly and the next start continues its generation", async () => {
  const s = start();
  await s.stop();
  server = null;
  const state = JSON.parse(await Bun.file(join(dir, "backups", "wal", "state.json")).text()) as { generation: string; clean: unknown };
  expect(state.clean).not.toBeNull();
  const again = startServer(loadConfig(["--data", dir, "--host", "127.0.0.1", "--port", "0"], {}), { log: silentLogger });
  server = again;
  expect((await fetch(`${again.url}/api/instance`)).status).toBe(200);
  expect(again.core.wal!.position().generation).toBe(state.generation);
});
