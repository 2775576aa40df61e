/**
 * The hidden working copy (docs/decisions.md, "What a collaboration room accepts"): one member
 * writing into a Yjs type the editor never shows, against a real server process. Before, every such
 * update was kept, sent to every newcomer and stored (40 MB in 30 s); now each is refused, and the
 * server's memory stays bounded.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { peakRssDuring, rssMb } from "../../tests/rss";
import { startServerProcess, type ServerProcess } from "../../tests/server-process";
import { connect, makePage, makeSpace, synced, until, PASSWORD, type Account, type Client, type CollabEnv } from "./testing";

let dir: string;
let server: ServerProcess;
const clients: Client[] = [];

/** The parts of a CollabEnv the helpers use, over the process's port. */
function processEnv(): CollabEnv {
  const env = {
    get url() {
      return server.url;
    },
    get wsUrl() {
      return `${server.url.replace(/^http/, "ws")}/api/collab`;
    },
    async api(method: string, path: string, as: Account | null, body?: unknown) {
      const headers: Record<string, string> = { "x-requested-with": "Cairn" };
      if (as) headers.cookie = `cairn_session=${as.cookie}`;
      if (body !== undefined) headers["content-type"] = "application/json";
      const res = await fetch(server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async signUp(email: string) {
      const res = await fetch(`${server.url}/api/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
        body: JSON.stringify({ email, displayName: "Owner", password: PASSWORD }),
      });
      if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
      const cookie = /cairn_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")![1];
      return { id: ((await res.json()) as { id: string }).id, cookie };
    },
  };
  return env as unknown as CollabEnv;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cairn-hidden-copy-"));
  server = await startServerProcess(join(dir, "data"));
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  server.proc.kill("SIGTERM");
  await server.proc.exited;
  rmSync(dir, { recursive: true, force: true });
});

test("writing into doc.getMap('junk') for seconds: nothing kept, sent or stored; RSS bounded; the server lives", async () => {
  const env = processEnv();
  const owner = await env.signUp("owner@example.com");
  const spaceId = await makeSpace(env, owner, "JUNK", []);
  const pageId = await makePage(env, owner, spaceId, "The page");
  const open = async () => {
    const c = await connect(env, owner, pageId);
    clients.push(c);
    await synced(c);
    return c;
  };
  const watcher = await open();
  let sent = 0;
  // Each connection sends junk until it is closed (a refused change closes it); then another.
  const attack = async (ms: number) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      const attacker = await open();
      const junk = attacker.doc.getMap("junk");
      for (let round = 0; round < 20 && attacker.closes.length === 0 && (round === 0 || Date.now() < end); round++) {
        attacker.doc.transact(() => {
          for (let i = 0; i < 200; i++) junk.set(`k${round}-${i}`, "x".repeat(1000));
        });
        sent += 200_000;
        await Bun.sleep(20);
      }
      await until(() => attacker.closes.length > 0, 3000, "the attacker's socket closed");
      expect(attacker.closes[0].code).toBe(4415);
      attacker.destroy();
    }
  };
  // A first round warms the server up (its heap grows to its working size on any first load).
  await attack(500);
  sent = 0;
  const { before, peak } = await peakRssDuring(server.proc.pid, () => attack(3000));
  const growth = peak - before;
  console.log(
    `hidden working copy: ${(sent / 1e6).toFixed(1)} MB written into the junk map; server RSS ` +
      `${before.toFixed(0)} MB → peak ${peak.toFixed(0)} MB (+${growth.toFixed(0)} MB)`,
  );
  expect(growth).toBeLessThan(150);
  expect(watcher.doc.share.has("junk")).toBe(false);

  // A newcomer gets nothing of it; nor does one after a restart (nothing was stored).
  const newcomer = await open();
  expect(newcomer.doc.getMap("junk").size).toBe(0);
  for (const c of clients) c.provider.disconnect();
  server.proc.kill("SIGTERM");
  expect(await server.proc.exited).toBe(0);
  server = await startServerProcess(join(dir, "data"));
  const later = await open();
  expect(later.doc.getMap("junk").size).toBe(0);
  expect(later.fragment.toString()).toContain("The page");
  expect(server.proc.exitCode).toBeNull();
  expect(rssMb(server.proc.pid)).toBeGreaterThan(0);
}, 30_000);
