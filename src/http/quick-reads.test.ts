import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { BASE, call, makeEnv, mintToken, signUp, type TestEnv } from "../../tests/harness";
import { setSetting } from "../settings/service";
import { apiRoutes } from "./app";
import { composeApp, durableHandler, type RequestHandler } from "./app-shell";
import { quickReadMatcher, type QuickRead } from "./quick-reads";

const handler: QuickRead["handler"] = () => new Response("quick");
const routes = [
  { method: "GET", path: "/api/auth/me" },
  { method: "GET", path: "/api/pages/:id" },
  { method: "GET", path: "/api/pages/tree" },
  { method: "POST", path: "/api/pages/move-many" },
  { method: "POST", path: "/api/things/:id" },
];

describe("which paths a quick read takes", () => {
  const match = quickReadMatcher(
    [
      { path: "/api/auth/me", handler },
      { path: "/api/pages/:id", handler },
      { path: "/api/things/:id", handler },
    ],
    routes,
  );
  test("its own path, and a plain parameter", () => {
    expect(match("/api/auth/me")?.params).toEqual({});
    expect(match("/api/pages/01a2232f-a216-71ee-a9c9-62d3b4be2940")?.params).toEqual({ id: "01a2232f-a216-71ee-a9c9-62d3b4be2940" });
  });
  test("never a path that is a route of its own (any method), nor one to decode or check, nor a deeper one", () => {
    for (const path of [
      "/api/pages/tree",
      "/api/pages/move-many",
      "/api/pages/a%20b",
      "/api/pages/",
      "/api/pages/x/versions",
      `/api/pages/${"a".repeat(101)}`,
      "/api/auth/me/",
      "/api/other",
    ]) {
      expect(match(path)).toBeNull();
    }
  });
  test("a read the app has not as a GET route is not used", () => {
    expect(match("/api/things/1")).toBeNull();
  });
});

describe("a quick read answers as the route through Elysia does", () => {
  let env: TestEnv;
  let viaElysia: RequestHandler;
  beforeEach(() => {
    env = makeEnv();
    // The same routes with no quick reads: every request through Elysia's chain.
    viaElysia = durableHandler(env.core, composeApp(env.core, apiRoutes(env.core)));
  });
  afterEach(() => env.close());

  async function both(path: string, sent: Record<string, string> = {}) {
    const answers = [];
    for (const handle of [env.handle, viaElysia]) {
      const res = await handle(new Request(BASE + path, { headers: sent }), "203.0.113.9");
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => (headers[name] = value));
      answers.push({ status: res.status, headers, body: await res.text() });
    }
    expect(answers[0]).toEqual(answers[1]);
    return answers[0]!;
  }

  test("the account: by token, by session, a session that ended, nobody, a bad token", async () => {
    const owner = await signUp(env, "owner@example.com");
    const token = await mintToken(env, owner);
    expect((await both("/api/auth/me", { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await both("/api/auth/me", { cookie: `cairn_session=${owner.cookie}` })).status).toBe(200);
    const ended = await both("/api/auth/me", { cookie: "cairn_session=no-such-session" });
    expect(ended.status).toBe(401);
    expect(ended.headers["set-cookie"]).toContain("Max-Age=0");
    expect((await both("/api/auth/me")).status).toBe(401);
    expect((await both("/api/auth/me", { authorization: "Bearer cct_wrong" })).status).toBe(401);
  });

  test("a page: read, missing, hidden from an anonymous reader, and anonymous on a public space with its ETag", async () => {
    const owner = await signUp(env, "owner@example.com");
    const space = (await call(env, "POST", "/api/spaces", { as: owner, body: { key: "QUICK", name: "Quick" } })).body;
    const page = (await call(env, "POST", "/api/pages", { as: owner, body: { spaceId: space.id, title: "A page" } })).body;
    const read = await both(`/api/pages/${page.id}`, { cookie: `cairn_session=${owner.cookie}` });
    expect(read.status).toBe(200);
    expect(JSON.parse(read.body).id).toBe(page.id);
    expect((await both("/api/pages/01a2232f-a216-71ee-a9c9-62d3b4be2940", { cookie: `cairn_session=${owner.cookie}` })).status).toBe(404);
    expect((await both(`/api/pages/${page.id}`)).status).toBe(404);
    expect((await call(env, "PUT", "/api/admin/spaces/QUICK/public", { as: owner, body: { isPublic: true } })).status).toBe(200);
    setSetting(env.core, "allowPublicSpaces", true);
    const open = await both(`/api/pages/${page.id}`);
    expect(open.status).toBe(200);
    expect((await both(`/api/pages/${page.id}`, { "if-none-match": open.headers.etag! })).status).toBe(304);
  });

  test("a blocked address is refused before anything else", async () => {
    const owner = await signUp(env, "owner@example.com");
    const token = await mintToken(env, owner);
    expect(
      (await call(env, "POST", "/api/admin/security/blocks", { as: owner, body: { cidr: "203.0.113.0/24", reason: "a test" } })).status,
    ).toBe(201);
    expect((await both("/api/auth/me", { authorization: `Bearer ${token}` })).status).toBe(403);
  });
});
