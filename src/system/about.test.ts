import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv } from "../../tests/harness";
import { VERSION } from "../version";
import { compareVersions, latestRelease } from "./about";
import { packagesOfMetafiles } from "./about-deps";

let env: TestEnv;
afterEach(() => env?.close());

/** A real HTTP server on loopback serving a releases feed (and a slow and a broken address). */
let feedServer: ReturnType<typeof Bun.serve>;
let feedBody = "";
beforeAll(() => {
  feedServer = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/releases.atom") return new Response(feedBody, { headers: { "content-type": "application/atom+xml" } });
      if (path === "/slow") return new Promise<Response>(() => {}); // never answers
      return new Response("nope", { status: 500 });
    },
  });
});
afterAll(() => feedServer.stop(true));

const entry = (v: string, i: number) =>
  `<entry><id>tag:example,2008:Repository/1/v${v}</id><updated>2026-0${(i % 9) + 1}-01T10:00:00Z</updated>` +
  `<link rel="alternate" type="text/html" href="https://example.test/cairn/releases/tag/v${v}"/>` +
  `<title>v${v}</title><content type="html">&lt;p&gt;Notes&lt;/p&gt;</content></entry>`;
const atom = (...versions: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>Release notes from cairn</title>` +
  `${versions.map(entry).join("")}</feed>`;

const feedEnv = (path: string, allow = "127.0.0.1") =>
  makeEnv({ env: { CAIRN_RELEASE_FEED: `http://127.0.0.1:${feedServer.port}${path}`, CAIRN_OUTBOUND_ALLOW: allow } });

describe("GET /api/admin/about", () => {
  test("version, runtime and the packages with their licences (from node_modules when run from source)", async () => {
    env = makeEnv();
    const { owner, member } = await ownerAndMember(env);
    const res = await call(env, "GET", "/api/admin/about", { as: owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Cairn",
      version: VERSION,
      builtAt: null,
      dependenciesFrom: "node_modules",
      runtime: { bun: Bun.version, platform: process.platform, arch: process.arch },
      releaseFeed: null,
    });
    const names = (res.body.dependencies as { name: string; license: string }[]).map((d) => d.name);
    for (const shipped of ["elysia", "drizzle-orm", "react", "@jsquash/webp"]) expect(names).toContain(shipped);
    expect(names).not.toContain("typescript"); // a dev dependency ships nothing
    expect(res.body.dependencies.find((d: { name: string }) => d.name === "@jsquash/webp")).toMatchObject({
      license: "Apache-2.0",
      version: "1.5.0",
    });
    expect((await call(env, "GET", "/api/admin/about", { as: member })).status).toBe(403);
    expect((await call(env, "GET", "/api/admin/about")).status).toBe(401);
  });

  test("the background work: every task of the scheduler with when it runs, its last run, last error and next run", async () => {
    env = makeEnv();
    const { owner } = await ownerAndMember(env);
    const background = (await call(env, "GET", "/api/admin/about", { as: owner })).body.background as Array<Record<string, unknown>>;
    // The webhooks' retries are armed in every instance, the in-process runs listed even when none runs.
    expect(background.find((t) => t.name === "webhooks.retries")).toMatchObject({
      kind: "every",
      when: "every 5 s",
      stopOrder: 1,
      running: false,
      lastError: null,
    });
    expect(background.find((t) => t.name === "runs")).toMatchObject({ kind: "runs", stopOrder: 2, nextRunAt: null });
    expect(background.map((t) => t.stopOrder)).toEqual([...background.map((t) => t.stopOrder as number)].sort());
  });

  test("notices: plain text with every package's licence text", async () => {
    env = makeEnv();
    const { owner } = await ownerAndMember(env);
    const res = await call(env, "GET", "/api/admin/about/notices", { as: owner });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/plain");
    expect(res.text).toContain("Third-party software in Cairn");
    expect(res.text).toMatch(/elysia \d+\.\d+\.\d+/);
    expect(res.text).toContain("Permission is hereby granted, free of charge"); // the MIT text itself
    expect(res.text).toContain("Apache License");
  });
});

describe("POST /api/admin/about/check", () => {
  test("a newer release in the feed: update_available with its version and link", async () => {
    feedBody = atom("0.0.9", "99.1.0", "99.2.0-beta.1", "1.0.0");
    env = feedEnv("/releases.atom");
    const { owner } = await ownerAndMember(env);
    const res = await call(env, "POST", "/api/admin/about/check", { as: owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "update_available",
      current: VERSION,
      latest: { version: "99.1.0", url: "https://example.test/cairn/releases/tag/v99.1.0", publishedAt: "2026-02-01T10:00:00.000Z" },
    });
    expect(res.body.message).toBe(`Cairn 99.1.0 is available; this server runs ${VERSION}.`);
  });

  test("nothing newer: up_to_date", async () => {
    feedBody = atom(VERSION, "0.0.1");
    env = feedEnv("/releases.atom");
    const { owner } = await ownerAndMember(env);
    expect((await call(env, "POST", "/api/admin/about/check", { as: owner })).body).toMatchObject({
      status: "up_to_date",
      latest: { version: VERSION },
    });
  });

  test("an unreachable feed is a 200 saying offline, never a 500", async () => {
    // A loopback port nothing listens on: the connection is refused at once.
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = closed.port;
    closed.stop(true);
    env = makeEnv({ env: { CAIRN_RELEASE_FEED: `http://127.0.0.1:${port}/releases.atom`, CAIRN_OUTBOUND_ALLOW: "127.0.0.1" } });
    const { owner } = await ownerAndMember(env);
    const res = await call(env, "POST", "/api/admin/about/check", { as: owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "offline", latest: null, current: VERSION });
    expect(res.body.message).toContain("Could not reach the release feed");
  });

  test("a feed that never answers: offline after the time-out", async () => {
    env = feedEnv("/slow");
    const { owner } = await ownerAndMember(env);
    const started = Date.now();
    const res = await call(env, "POST", "/api/admin/about/check", { as: owner });
    expect(res.body).toMatchObject({ status: "offline" });
    expect(res.body.message).toContain("no answer in time");
    expect(Date.now() - started).toBeLessThan(8_000);
  }, 15_000);

  test("an error status, an unreadable feed and a refused address are 200 unavailable; no feed is not_configured", async () => {
    env = feedEnv("/missing");
    const { owner } = await ownerAndMember(env);
    expect((await call(env, "POST", "/api/admin/about/check", { as: owner })).body).toMatchObject({
      status: "unavailable",
      message: "The release feed answered 500; try again later.",
    });
    env.close();
    feedBody = "<html>not a feed</html>";
    env = feedEnv("/releases.atom");
    const o2 = (await ownerAndMember(env)).owner;
    expect((await call(env, "POST", "/api/admin/about/check", { as: o2 })).body).toMatchObject({ status: "unavailable" });
    env.close();
    env = feedEnv("/releases.atom", ""); // loopback without CAIRN_OUTBOUND_ALLOW
    const o3 = (await ownerAndMember(env)).owner;
    const refused = await call(env, "POST", "/api/admin/about/check", { as: o3 });
    expect(refused.body.status).toBe("unavailable");
    expect(refused.body.message).toContain("CAIRN_OUTBOUND_ALLOW");
    env.close();
    env = makeEnv();
    const o4 = (await ownerAndMember(env)).owner;
    expect((await call(env, "POST", "/api/admin/about/check", { as: o4 })).body).toMatchObject({ status: "not_configured", feedUrl: null });
  });
});

describe("feed and version helpers", () => {
  test("RSS items, CDATA titles and tags in links", () => {
    const rss =
      `<rss><channel><item><title><![CDATA[Cairn 2.0.1]]></title><link>https://example.test/r/2.0.1</link><pubDate>Tue, 10 Nov 2026 ` +
      `10:00:00 GMT</pubDate></item><item><title>Notes</title><link>https://example.test/releases/tag/v2.1.0</link></item></channel><` +
      `/rss>`;
    expect(latestRelease(rss)).toEqual({ version: "2.1.0", url: "https://example.test/releases/tag/v2.1.0", publishedAt: null });
    expect(latestRelease("<feed></feed>")).toBeNull();
  });

  test("semantic-version order", () => {
    expect(compareVersions("0.10.0", "0.9.9")).toBeGreaterThan(0);
    expect(compareVersions("1.0.0-rc.1", "1.0.0")).toBeLessThan(0);
    expect(compareVersions("1.0.0", "1.0.0")).toBe(0);
  });

  test("a metafile's inputs name their packages (scoped, nested, absolute)", () => {
    const dirs = packagesOfMetafiles(
      [
        {
          inputs: {
            "node_modules/elysia/dist/index.mjs": {},
            "node_modules/@jsquash/webp/encode.js": {},
            "/abs/node_modules/a/node_modules/b/x.js": {},
            "src/main.ts": {},
          },
        },
      ],
      "/root",
    );
    expect(dirs.sort()).toEqual(["/abs/node_modules/a/node_modules/b", "/root/node_modules/@jsquash/webp", "/root/node_modules/elysia"]);
  });
});
