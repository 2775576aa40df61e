/**
 * Records which functions a server's start uses (`bun scripts/record-bytecode-order.ts`), for
 * the build to lay their bytecode out together (scripts/build.ts, BYTECODE_ORDER). It builds the
 * binary, starts it on a fresh data directory with Bun's recorder on, asks what the benchmark
 * asks before it reads an idle server's memory (/api/health, /api/auth/me, /api/instance),
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

/** The rest loads 250 ms after listening; the first quiet second follows (platform/idle-gc.ts). */
const SETTLE_MS = 3_000;

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
  for (const path of ["/api/health", "/api/auth/me", "/api/instance"]) await (await fetch(url + path)).arrayBuffer();
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
