/**
 * Records which functions a server's start uses (`bun scripts/record-bytecode-order.ts`), for
 * the build to lay their bytecode out together (scripts/build.ts, BYTECODE_ORDER). It builds the
 * binary, starts it on a fresh data directory with Bun's recorder on, asks what the benchmark
 * asks before it reads an idle server's memory (the owner signs in and makes a token; then
 * /api/health, /api/auth/me, /api/instance),
 * waits until the rest of the server has loaded and the first quiet moment has passed, stops
 * it, keeps the order gzipped in scripts/ and builds again with it.
 *
 * Run it again when start-up changes a lot: an old order still applies (a function is known by
 * its hash), only what is new is laid out after it, and an idle server's memory shows when
 * (`bun scripts/bench/startup-probe.ts --smaps`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, BYTECODE_ORDER } from "./build";
import { freePort, HOST, waitFor200 } from "./bench/procs";
import { OWNER } from "./bench/seed";

/** The rest loads 250 ms after listening; the first quiet second follows (platform/idle-gc.ts). */
const SETTLE_MS = 3_000;

async function send(url: string, path: string, headers: Record<string, string>, body: unknown): Promise<Response> {
  const res = await fetch(url + path, { method: "POST", headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res;
}

const { outfile } = await build({ quiet: true });
const dataDir = mkdtempSync(join(tmpdir(), "cairn-order-"));
const orderPath = join(dataDir, "order.txt");
try {
  const port = await freePort();
  const child = Bun.spawn([outfile, "serve", "--data", join(dataDir, "data"), "--host", HOST, "--port", String(port)], {
    env: { ...process.env, BUN_BYTECODE_ORDER_OUT: orderPath },
    stdout: "ignore",
    stderr: "inherit",
  });
  const url = `http://${HOST}:${port}`;
  await waitFor200(`${url}/api/health`, child, 10_000);
  // What the benchmark does before it reads an idle server's memory: the owner signs in and
  // makes a token (here the owner is registered first: the directory is new), then three reads.
  const json = { "content-type": "application/json", "x-requested-with": "Cairn" };
  await send(url, "/api/auth/register", json, OWNER);
  const login = await send(url, "/api/auth/login", json, { email: OWNER.email, password: OWNER.password });
  const cookie = /cairn_session=([^;]*)/.exec(login.headers.get("set-cookie") ?? "")?.[1];
  const { token } = await (await send(url, "/api/api-tokens", { ...json, cookie: `cairn_session=${cookie}` }, { name: "order" })).json();
  for (const path of ["/api/health", "/api/auth/me", "/api/instance"])
    await (await fetch(url + path, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
  await Bun.sleep(SETTLE_MS);
  child.kill("SIGTERM");
  await child.exited;
  const order = readFileSync(orderPath);
  writeFileSync(BYTECODE_ORDER, Bun.gzipSync(order, { level: 9 }));
  console.log(`${BYTECODE_ORDER}: ${order.toString().split("\n").length - 1} functions`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
const rebuilt = await build({ quiet: true });
console.log(`${rebuilt.outfile}: ${(rebuilt.bytes / 1024 / 1024).toFixed(1)} MB, with the order`);
