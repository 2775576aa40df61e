/**
 * `bun scripts/bench/request-inprocess.ts [--n=20000] [--kinds=health,me,page,anon-page]`: the
 * request path's own CPU per request, in-process (the server's handler called with a Request,
 * as Bun would hand it, one at a time; no sockets, no loader on the same cores). What it shows
 * is our pipeline's cost without Bun's HTTP server around it; the request's construction and
 * the body's read are counted too (the "noop" kind, a handler that answers at once, is that
 * floor). CPU is this process's utime+stime over the loop, so it is steadier than a timing on
 * a shared machine; run it with `bun --cpu-prof` to see where the time goes.
 */
import { createApp, durableHandler } from "../../src/http/app";
import { openInstance } from "../../src/instance";
import { loadConfig } from "../../src/platform/config";
import { createLogger } from "../../src/platform/log";
import { hashPasswordsCheaplyForTests } from "../../src/identity/password";

hashPasswordsCheaplyForTests();
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const n = Number(option("n") ?? 20000);
const kinds = (option("kinds") ?? "noop,health,me,page,anon-page").split(",");

const dir = mkdtempSync(join(tmpdir(), "cairn-inprocess-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
// The real logger's formatting, its output thrown away.
const core = openInstance(loadConfig(["--data", dir], {}), { groupCommits: true, log: createLogger(() => {}), archiveWal: true });
const handle = durableHandler(core, createApp(core));
const BASE = "http://127.0.0.1:3000";
const IP = "127.0.0.1";

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await handle(
    new Request(BASE + path, {
      method,
      headers: { "content-type": "application/json", "x-requested-with": "Cairn", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    IP,
  );
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return { json: text ? JSON.parse(text) : null, headers: res.headers };
}

const signUp = await api("POST", "/api/auth/register", {
  email: "owner@example.com",
  password: "correct horse battery staple",
  displayName: "Owner",
});
const cookie = (signUp.headers.get("set-cookie") ?? "").split(";")[0];
const token = (await api("POST", "/api/api-tokens", { name: "bench" }, { cookie })).json.token as string;
const auth = { authorization: `Bearer ${token}` };
const space = (await api("POST", "/api/spaces", { key: "BENCH", name: "Bench" }, auth)).json;
const text = "A paragraph of words about rivers, stones and gardens. ".repeat(40);
const contentJson = JSON.stringify({
  type: "doc",
  content: Array.from({ length: 8 }, () => ({ type: "paragraph", content: [{ type: "text", text }] })),
});
const page = (await api("POST", "/api/pages", { spaceId: space.id, title: "A page", contentJson }, auth)).json;
await api("PATCH", `/api/spaces/${space.id}`, { visibility: "public" }, auth).catch(() => {});

const requests: Record<string, () => Request> = {
  noop: () => new Request(`${BASE}/api/health`, { headers: auth }),
  health: () => new Request(`${BASE}/api/health`, { headers: auth }),
  me: () => new Request(`${BASE}/api/auth/me`, { headers: auth }),
  page: () => new Request(`${BASE}/api/pages/${page.id}`, { headers: auth }),
  "me-cookie": () => new Request(`${BASE}/api/auth/me`, { headers: { cookie } }),
};

for (const kind of kinds) {
  const make = requests[kind];
  if (!make) continue;
  const run = kind === "noop" ? async (r: Request) => new Response("{}") : (r: Request) => handle(r, IP);
  const first = await run(make());
  if (first.status !== 200) throw new Error(`${kind}: ${first.status} ${await first.text()}`);
  for (let i = 0; i < 2000; i++) await (await run(make())).arrayBuffer();
  Bun.gc(true);
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) await (await run(make())).arrayBuffer();
  const used = process.cpuUsage(before);
  console.log(`${kind.padEnd(10)} ${((used.user + used.system) / n).toFixed(2)} µs CPU per request (sys ${(used.system / n).toFixed(2)})`);
}
core.close();
