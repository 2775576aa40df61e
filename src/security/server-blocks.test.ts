/** Blocks on the real server: its socket's address is the one judged, the editing socket included. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../platform/config";
import { silentLogger } from "../platform/log";
import { startServer, type RunningServer } from "../server";
import { securityBlocks } from "./tables";

let server: RunningServer;
const dir = mkdtempSync(join(tmpdir(), "cairn-blocks-"));

beforeAll(() => {
  server = startServer(loadConfig(["--data", dir, "--host", "127.0.0.1", "--port", "0"], {}), { log: silentLogger });
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("a block on the loopback range refuses the API, the UI and the collaboration socket; removing it lets them in", async () => {
  expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  // Written directly: through the API, a block covering the caller's own address is refused.
  server.core.tx(() =>
    server.core.db
      .insert(securityBlocks)
      .values({ id: "b1", cidr: "127.0.0.0/8", reason: "test", createdById: null, createdAt: new Date().toISOString(), expiresAt: null })
      .run(),
  );
  for (const path of ["/api/health", "/", "/login", "/api/collab/some-page?token=x"]) {
    const res = await fetch(
      `${server.url}${path}`,
      path.startsWith("/api/collab")
        ? {
            headers: {
              upgrade: "websocket",
              connection: "Upgrade",
              "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
              "sec-websocket-version": "13",
            },
          }
        : {},
    );
    expect([path, res.status, ((await res.json()) as { code: string }).code]).toEqual([path, 403, "address_blocked"]);
  }
  server.core.tx(() => server.core.db.delete(securityBlocks).run());
  expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
});
