import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BASE } from "../../tests/harness";
import type { Core } from "../core";
import { openInstance } from "../instance";
import { ManualClock } from "../platform/clock";
import { loadConfig } from "../platform/config";
import { createLogger } from "../platform/log";
import { createApp, durableHandler, type RequestHandler } from "./app";

let dir: string;
let core: Core;
let lines: string[];
let handle: RequestHandler;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cairn-log-"));
  lines = [];
  core = openInstance(loadConfig(["--data", dir], {}), { clock: new ManualClock(), log: createLogger((l) => lines.push(l)) });
  // The server's handler: it logs each answer as it leaves.
  handle = durableHandler(core, createApp(core));
});
afterEach(() => {
  core.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  handle(
    new Request(BASE + path, {
      method: "POST",
      headers: { "content-type": "application/json", "x-requested-with": "Cairn", ...headers },
      body: JSON.stringify(body),
    }),
  );

test("one structured line per request, with no password, token, cookie or code", async () => {
  const secret = "a very secret passphrase";
  const reg = await post("/api/auth/register", { email: "owner@example.com", displayName: "O", password: secret });
  const cookie = /cairn_session=([^;]+)/.exec(reg.headers.get("set-cookie")!)![1];
  const tok = await (await post("/api/api-tokens", { name: "t" }, { cookie: `cairn_session=${cookie}` })).json();
  await handle(new Request(`${BASE}/api/auth/me?token=${tok.token}`, { headers: { authorization: `Bearer ${tok.token}` } }));
  await post("/api/auth/login", { email: "owner@example.com", password: "wrong but secret" });
  await handle(new Request(`${BASE}/api/nope`));

  const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === "request");
  expect(requests.map((r) => [r.method, r.path, r.status])).toEqual([
    ["POST", "/api/auth/register", 201],
    ["POST", "/api/api-tokens", 201],
    ["GET", "/api/auth/me", 200],
    ["POST", "/api/auth/login", 401],
    ["GET", "/api/nope", 404],
  ]);
  for (const r of requests) expect(typeof r.durationMs).toBe("number");
  const ownerId = (await reg.json()).id;
  expect(requests[2]).toMatchObject({ via: "token", callerId: ownerId });
  const all = lines.join("\n");
  for (const leaked of [secret, "wrong but secret", cookie, tok.token]) expect(all).not.toContain(leaked);
});
