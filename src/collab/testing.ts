/**
 * Collaboration tests run a real server on a port (src/server.ts, as the binary does) and
 * connect stock y-websocket WebsocketProvider clients to it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebsocketProvider } from "y-websocket";
import * as Y from "yjs";
import { hashPasswordsCheaplyForTests } from "../identity/password";
import { loadConfig } from "../platform/config";
import { silentLogger } from "../platform/log";
import { startServer, type RunningServer } from "../server";
import type { CollabOptions } from "./start";

hashPasswordsCheaplyForTests();

export const PASSWORD = "correct horse battery staple";

export interface Account {
  id: string;
  cookie: string;
}

export interface CollabEnv {
  server: RunningServer;
  dir: string;
  url: string;
  wsUrl: string;
  api(method: string, path: string, as: Account | null, body?: unknown): Promise<{ status: number; body: any }>;
  signUp(email: string, inviteBy?: Account): Promise<Account>;
  /** Stops the server (as a restart would) and starts a new one on the same data directory. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startCollabEnv(
  dir = mkdtempSync(join(tmpdir(), "cairn-collab-")),
  collab: CollabOptions = { sweepMs: 200 },
): Promise<CollabEnv> {
  // A restart comes back on the same port, so clients reconnect as they would to the binary.
  let port = 0;
  const start = () => {
    const server = startServer(loadConfig(["--data", dir, "--host", "127.0.0.1", "--port", String(port)], {}), {
      log: silentLogger,
      collab,
    });
    port = server.server.port ?? 0;
    return server;
  };
  const env: CollabEnv = {
    server: start(),
    dir,
    get url() {
      return env.server.url;
    },
    get wsUrl() {
      return `${env.server.url.replace(/^http/, "ws")}/api/collab`;
    },
    async api(method, path, as, body) {
      const headers: Record<string, string> = { "x-requested-with": "Cairn" };
      if (as) headers.cookie = `cairn_session=${as.cookie}`;
      if (body !== undefined) headers["content-type"] = "application/json";
      const res = await fetch(env.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async signUp(email, inviteBy) {
      const inviteToken = inviteBy ? (await env.api("POST", "/api/admin/invites", inviteBy, {})).body.token : undefined;
      const res = await fetch(`${env.url}/api/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
        body: JSON.stringify({ email, displayName: email.split("@")[0], password: PASSWORD, inviteToken }),
      });
      if (res.status !== 201) throw new Error(`register ${email}: ${res.status} ${await res.text()}`);
      const cookie = /cairn_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")![1];
      return { id: ((await res.json()) as { id: string }).id, cookie };
    },
    async restart() {
      await env.server.stop();
      env.server = start();
    },
    async close() {
      await env.server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return env;
}

/** A space whose only grants are the ones given (the "everyone" grant is dropped). */
export async function makeSpace(env: CollabEnv, owner: Account, key: string, grants: Array<[string, number]>): Promise<string> {
  const space = await env.api("POST", "/api/spaces", owner, { key, name: key });
  const list = (await env.api("GET", `/api/spaces/${key}/permissions`, owner)).body as Array<{
    id: string;
    principalType: number;
    principalId: string;
  }>;
  for (const g of list) if (g.principalType === 1) await env.api("DELETE", `/api/spaces/${key}/permissions/${g.id}`, owner);
  for (const [userId, operation] of grants)
    await env.api("POST", `/api/spaces/${key}/permissions`, owner, { principalType: 0, principalId: userId, operation });
  return space.body.id;
}

export const paragraphs = (...texts: string[]) => ({
  type: "doc",
  content: texts.map((text) => ({ type: "paragraph", content: text ? [{ type: "text", text }] : undefined })),
});

export async function makePage(env: CollabEnv, as: Account, spaceId: string, ...texts: string[]): Promise<string> {
  const res = await env.api("POST", "/api/pages", as, { spaceId, title: "Shared page", contentJson: JSON.stringify(paragraphs(...texts)) });
  if (res.status !== 201) throw new Error(`page: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export interface Client {
  doc: Y.Doc;
  provider: WebsocketProvider;
  fragment: Y.XmlFragment;
  /** The close events the server sent this client. */
  closes: Array<{ code: number; reason: string }>;
  text(): string;
  destroy(): void;
}

/** A stock y-websocket client on the page's room, with a fresh token for `as`. */
export async function connect(env: CollabEnv, as: Account, pageId: string, opts: { token?: string } = {}): Promise<Client> {
  const token = opts.token ?? (await env.api("GET", `/api/pages/${pageId}/collab-token`, as)).body.token;
  const doc = new Y.Doc();
  const provider = new WebsocketProvider(env.wsUrl, pageId, doc, {
    params: { token },
    disableBc: true,
    WebSocketPolyfill: WebSocket as never,
  });
  const closes: Array<{ code: number; reason: string }> = [];
  provider.on("connection-close", (event) => {
    if (event) closes.push({ code: event.code, reason: event.reason });
  });
  const fragment = doc.getXmlFragment("default");
  return {
    doc,
    provider,
    fragment,
    closes,
    text: () =>
      fragment
        .toArray()
        .map((node) =>
          node instanceof Y.XmlElement
            ? node
                .toArray()
                .map((t) => (t as Y.XmlText).toString())
                .join("")
            : "",
        )
        .join("\n"),
    destroy: () => {
      provider.destroy();
      doc.destroy();
    },
  };
}

/** Connects, keeps the client in `into` (for the test's clean-up) and waits for the first sync. */
export async function openSynced(env: CollabEnv, as: Account, pageId: string, into: Client[]): Promise<Client> {
  const c = await connect(env, as, pageId);
  into.push(c);
  await synced(c);
  return c;
}

export async function synced(client: Client, ms = 3000): Promise<void> {
  await until(() => client.provider.synced, ms, "synced");
}

export async function until(check: () => boolean, ms = 3000, what = "condition"): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10);
  }
}

/** Types text at the end of the first paragraph, as an editor would. */
export function typeInto(client: Client, text: string, paragraph = 0): void {
  const p = client.fragment.get(paragraph) as Y.XmlElement;
  let t = p.get(0) as Y.XmlText | undefined;
  client.doc.transact(() => {
    if (!t) {
      t = new Y.XmlText();
      p.insert(0, [t]);
    }
    t.insert(t.length, text);
  });
}
