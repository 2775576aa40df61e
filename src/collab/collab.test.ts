import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  connect,
  makePage,
  makeSpace,
  startCollabEnv,
  synced,
  typeInto,
  until,
  type Account,
  type Client,
  type CollabEnv,
} from "./testing";

let env: CollabEnv;
let owner: Account;
let spaceId: string;
const clients: Client[] = [];
const open = async (as: Account, pageId: string) => {
  const c = await connect(env, as, pageId);
  clients.push(c);
  await synced(c);
  return c;
};

beforeAll(async () => {
  env = await startCollabEnv();
  owner = await env.signUp("owner@example.com");
  spaceId = await makeSpace(env, owner, "COLLAB", []);
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await env.close();
});

describe("rooms", () => {
  test("a room is seeded from the page's current version, with its version number", async () => {
    const pageId = await makePage(env, owner, spaceId, "Hello", "World");
    const a = await open(owner, pageId);
    expect(a.text()).toBe("Hello\nWorld");
    expect(a.doc.getMap("cairn").get("version")).toBe(1);
  });

  test("two and three clients converge on one page", async () => {
    const pageId = await makePage(env, owner, spaceId, "Start");
    const [a, b] = [await open(owner, pageId), await open(owner, pageId)];
    typeInto(a, " from A");
    typeInto(b, " from B");
    await until(() => a.text() === b.text() && a.text().includes("from A") && a.text().includes("from B"), 3000, "two clients converge");
    const c = await open(owner, pageId);
    typeInto(c, " and C");
    await until(() => [a, b, c].every((x) => x.text() === c.text() && x.text().includes("and C")), 3000, "three clients converge");
    expect(a.text()).toMatch(/^Start( from A from B| from B from A) and C$/);
  });

  test("carets (awareness) reach the other clients", async () => {
    const pageId = await makePage(env, owner, spaceId, "Carets");
    const [a, b] = [await open(owner, pageId), await open(owner, pageId)];
    a.provider.awareness.setLocalStateField("cursor", { anchor: 1 });
    const seen = () => b.provider.awareness.getStates().get(a.doc.clientID);
    // Shown under the account's own name (presence.test.ts).
    await until(() => seen()?.user?.name === "owner", 3000, "awareness");
    // A leaving client's caret goes at once.
    a.destroy();
    await until(() => seen() === undefined, 3000, "caret removed");
  });
});

describe("tokens", () => {
  let editor: Account;
  let viewer: Account;
  let outsider: Account;
  let pageId: string;
  beforeAll(async () => {
    editor = await env.signUp("editor@example.com", owner);
    viewer = await env.signUp("viewer@example.com", owner);
    outsider = await env.signUp("outsider@example.com", owner);
    const space = await makeSpace(env, owner, "TOKENS", [
      [editor.id, 1],
      [viewer.id, 0],
    ]);
    pageId = await makePage(env, owner, space, "Tokens");
  });

  test("the token endpoint answers editors only: viewer 403, outsider 404, anonymous 404", async () => {
    const ok = await env.api("GET", `/api/pages/${pageId}/collab-token`, editor);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ documentName: pageId, url: "/api/collab", enabled: true });
    const expires = Date.parse(ok.body.expiresAt) - Date.now();
    expect(expires).toBeGreaterThan(9 * 60_000);
    expect(expires).toBeLessThanOrEqual(10 * 60_000);
    expect((await env.api("GET", `/api/pages/${pageId}/collab-token`, viewer)).status).toBe(403);
    expect((await env.api("GET", `/api/pages/${pageId}/collab-token`, outsider)).status).toBe(404);
    expect((await env.api("GET", `/api/pages/${pageId}/collab-token`, null)).status).toBe(404);
  });

  const upgradeStatus = async (path: string) => {
    const res = await fetch(env.url + path, {
      headers: {
        upgrade: "websocket",
        connection: "Upgrade",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        "sec-websocket-version": "13",
      },
    });
    return res.status;
  };

  test("a forged, expired, other-page or missing token gets a plain HTTP 401 and no socket", async () => {
    const good = (await env.api("GET", `/api/pages/${pageId}/collab-token`, editor)).body.token as string;
    const other = await makePage(env, owner, spaceId, "Other");
    const [prefix, payload, mac] = good.split(".");
    const forged = `${prefix}.${Buffer.from(`${owner.id}.${pageId}.${Date.now() + 60_000}`).toString("base64url")}.${mac}`;
    const { signCollabToken } = await import("./token");
    const expired = signCollabToken(env.server.core.data.secretKey, { userId: editor.id, pageId, expiresAt: Date.now() - 1 });
    expect(payload.length).toBeGreaterThan(0);
    expect(await upgradeStatus(`/api/collab/${pageId}?token=${forged}`)).toBe(401);
    expect(await upgradeStatus(`/api/collab/${pageId}?token=${expired}`)).toBe(401);
    expect(await upgradeStatus(`/api/collab/${other}?token=${good}`)).toBe(401);
    expect(await upgradeStatus(`/api/collab/${pageId}`)).toBe(401);
    // A room name that is not one: no page.
    expect(await upgradeStatus(`/api/collab/%E0%A4%A?token=${good}`)).toBe(404);
    // And no stock client ever syncs with one.
    const c = await connect(env, editor, pageId, { token: forged });
    clients.push(c);
    await Bun.sleep(300);
    expect(c.provider.synced).toBe(false);
    expect(c.fragment.length).toBe(0);
  });

  test("a token of someone who lost the right since is refused at the upgrade (403)", async () => {
    const { signCollabToken } = await import("./token");
    const token = signCollabToken(env.server.core.data.secretKey, { userId: viewer.id, pageId, expiresAt: Date.now() + 60_000 });
    expect(await upgradeStatus(`/api/collab/${pageId}?token=${token}`)).toBe(403);
  });

  test("the socket closes with 4401 when its token expires", async () => {
    const { signCollabToken } = await import("./token");
    const token = signCollabToken(env.server.core.data.secretKey, { userId: editor.id, pageId, expiresAt: Date.now() + 700 });
    const c = await connect(env, editor, pageId, { token });
    clients.push(c);
    await synced(c);
    await until(() => c.closes.length > 0, 3000, "close");
    expect(c.closes[0].code).toBe(4401);
    expect(c.closes[0].reason).toContain("expired");
    // y-websocket does not reconnect after a 44xx close.
    expect(c.provider.shouldConnect).toBe(false);
  });
});
