import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { BASE, call, makeEnv, mintToken, signUp, type TestEnv } from "../../tests/harness";
import { setSetting } from "../settings/service";
import { KB, MAX_BODY_DEPTH, MB } from "./body";
import { isStreamedRoute } from "./body-limits";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const problem = (res: { headers: Headers }) => expect(res.headers.get("content-type")).toContain("application/problem+json");

describe("errors are problem documents", () => {
  test("unknown /api paths are JSON 404s", async () => {
    const res = await call(env, "GET", "/api/nope/nothing");
    expect(res.status).toBe(404);
    problem(res);
    expect(res.body).toMatchObject({ status: 404, code: "not_found" });
  });

  test("a non-JSON body on a JSON endpoint is a 415", async () => {
    const res = await call(env, "POST", "/api/auth/login", {
      body: "email=a&password=b",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
    problem(res);
    expect(res.body.code).toBe("unsupported_media_type");
  });

  test("malformed JSON is a 400 on body", async () => {
    const res = await call(env, "POST", "/api/auth/login", { body: "{not json", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation_failed", field: "body" });
  });

  test.each([
    ["/api/auth/login", 16 * KB],
    ["/api/pages", 8 * MB],
    ["/api/spaces", 1 * MB],
  ])("a body declared over %s's limit is refused with 413 naming it, before it is read", async (path, limit) => {
    const res = await call(env, "POST", path, {
      body: "{}",
      headers: { "content-type": "application/json", "content-length": String(limit + 1) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: "payload_too_large", limit });
  });

  test("a body that declares no length is cut off at the route's limit (413) while it streams", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 4096;
        controller.enqueue(new Uint8Array(4096).fill(0x20));
      },
    });
    const res = await env.handle(
      new Request(`${BASE}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
        body: endless,
      }),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "payload_too_large", limit: 16 * KB });
    expect(pulled).toBeLessThan(64 * KB);
  });

  test.each([
    ["arrays", "[".repeat(5000) + "]".repeat(5000)],
    ["objects", '{"a":'.repeat(2000) + "1" + "}".repeat(2000)],
    ["a field", `{"email":${"[".repeat(40)}${"]".repeat(40)},"password":"x"}`],
  ])("deeply nested %s are a 400 naming the body, not a stack overflow", async (_what, body) => {
    const res = await call(env, "POST", "/api/auth/login", { body, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "validation_failed",
      field: "body",
      detail: `The request body is nested more than ${MAX_BODY_DEPTH} levels deep.`,
    });
  });

  test("a problem document quotes nothing long that the client sent", async () => {
    const huge = "x".repeat(15_000);
    const cases = [
      await call(env, "POST", "/api/auth/login", { body: { email: huge, password: huge } }),
      await call(env, "POST", "/api/auth/login", { body: "{}", headers: { "content-type": `text/${huge}` } }),
      await call(env, "GET", `/api/${huge}`),
      await call(env, "POST", "/api/auth/login", { body: { [huge]: 1, email: "a@b.c", password: "p" } }),
    ];
    for (const res of cases) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.text.length).toBeLessThan(3000);
    }
  });

  test("several invalid fields are all named", async () => {
    const res = await call(env, "POST", "/api/auth/register", { body: { email: 1, displayName: 2, password: 3 } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(["displayName", "email", "password"]);
  });

  test("an unexpected failure is a generic 500 that leaks nothing", async () => {
    env.app.get("/api/test-crash", () => {
      throw new Error("secret internals at /srv/cairn");
    });
    const res = await call(env, "GET", "/api/test-crash");
    expect(res.status).toBe(500);
    problem(res);
    expect(res.body.code).toBe("internal_error");
    expect(res.text).not.toContain("secret");
  });

  test.each(["/api/health", "/api/nope", "/api/auth/me"])("security headers on %s", async (path) => {
    const res = await call(env, "GET", path);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("content-security-policy")).not.toContain("unsafe-inline' 'unsafe-eval");
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBeTruthy();
  });

  test("HSTS only over HTTPS", async () => {
    const plain = await env.handle(new Request("http://cairn.test/api/health"));
    const secure = await env.handle(new Request("https://cairn.test/api/health"));
    expect(plain.headers.get("strict-transport-security")).toBeNull();
    expect(secure.headers.get("strict-transport-security")).toContain("max-age=");
  });
});

describe("X-Requested-With: Cairn", () => {
  test("a session request that changes data without it is refused and changes nothing", async () => {
    const owner = await signUp(env, "owner@example.com");
    const res = await call(env, "PUT", "/api/auth/me", { as: owner, body: { displayName: "Changed" }, noCsrfHeader: true });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("csrf_header_missing");
    expect((await call(env, "GET", "/api/auth/me", { as: owner })).body.displayName).toBe("owner");
    const wrong = await call(env, "PUT", "/api/auth/me", {
      as: owner,
      body: { displayName: "Changed" },
      headers: { "x-requested-with": "XMLHttpRequest" },
    });
    expect(wrong.status).toBe(403);
  });

  test("token requests do not need it", async () => {
    const owner = await signUp(env, "owner@example.com");
    const token = await mintToken(env, owner);
    const res = await call(env, "POST", "/api/admin/invites", { as: { token }, body: {}, noCsrfHeader: true });
    expect(res.status).toBe(201);
  });
});

describe("rate limits", () => {
  test("anonymous requests: anonymousRateLimitPerMinute per address, then 429 with Retry-After", async () => {
    setSetting(env.core, "anonymousRateLimitPerMinute", 5);
    for (let i = 0; i < 5; i++) expect((await call(env, "GET", "/api/health")).status).toBe(200);
    const over = await call(env, "GET", "/api/health");
    expect(over.status).toBe(429);
    expect(over.body.code).toBe("rate_limited");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    env.clock.advance(60_000);
    expect((await call(env, "GET", "/api/health")).status).toBe(200);
  });

  test("requests with a token or a session are not limited", async () => {
    const owner = await signUp(env, "owner@example.com");
    const token = await mintToken(env, owner);
    setSetting(env.core, "anonymousRateLimitPerMinute", 2);
    for (let i = 0; i < 10; i++) {
      expect((await call(env, "GET", "/api/health", { as: { token } })).status).toBe(200);
      expect((await call(env, "GET", "/api/health", { as: owner })).status).toBe(200);
    }
  });

  test("sign-in: loginRateLimitPerMinute per address", async () => {
    setSetting(env.core, "loginRateLimitPerMinute", 3);
    const attempt = () => call(env, "POST", "/api/auth/login", { body: { email: "x@example.com", password: "whatever1" } });
    for (let i = 0; i < 3; i++) expect((await attempt()).status).toBe(401);
    const over = await attempt();
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toBeTruthy();
    env.clock.advance(60_000);
    expect((await attempt()).status).toBe(401);
  });
});

describe("account lockout", () => {
  const login = (password: string) => call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password } });

  test("locks after the threshold for base seconds, doubling up to the maximum; the right password is told so", async () => {
    await signUp(env, "owner@example.com");
    setSetting(env.core, "loginRateLimitPerMinute", 1000);
    const wrongBody = (await login("wrong password")).text;
    for (let i = 0; i < 4; i++) await login("wrong password");
    // Locked: a wrong password's answer does not change; the right one is told about the lock.
    expect((await login("wrong password")).text).toBe(wrongBody);
    const locked = await login("correct horse battery staple");
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe("rate_limited");
    env.clock.advance(59_000);
    expect((await login("correct horse battery staple")).status).toBe(429);

    // Second lock: 120 s; third: 240 s; … capped at 900 s.
    const expected = [60, 120, 240, 480, 900, 900];
    for (let lock = 1; lock < expected.length; lock++) {
      env.clock.advance(expected[lock - 1] * 1000);
      for (let i = 0; i < 5; i++) await login("wrong password");
      env.clock.advance(expected[lock] * 1000 - 1000);
      expect((await login("correct horse battery staple")).status).toBe(429);
    }
    env.clock.advance(1000);
    expect((await login("correct horse battery staple")).status).toBe(200);
    // Success clears the history: the next lock is back to the base duration.
    for (let i = 0; i < 5; i++) await login("wrong password");
    env.clock.advance(60_000);
    expect((await login("correct horse battery staple")).status).toBe(200);
  });

  test("the threshold and durations are settings", async () => {
    await signUp(env, "owner@example.com");
    setSetting(env.core, "lockoutThreshold", 2);
    setSetting(env.core, "lockoutBaseSeconds", 10);
    await login("wrong password");
    await login("wrong password");
    expect((await login("correct horse battery staple")).status).toBe(429);
    env.clock.advance(10_000);
    expect((await login("correct horse battery staple")).status).toBe(200);
  });
});

describe("streamed bodies", () => {
  test("the upload routes are the streamed ones, and they are composed when the app is made (the first body is read at once)", () => {
    const streamed = env.app.routes.filter(isStreamedRoute);
    expect(streamed.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      "POST /api/pages/:id/attachments",
      "POST /api/spaces/import",
      "PUT /api/admin/branding/favicon",
      "PUT /api/admin/branding/logo",
      "PUT /api/admin/branding/logo-dark",
      "PUT /api/media/avatars/me",
      "PUT /api/media/space-icons/:key",
    ]);
    // A route not composed yet holds Elysia's lazy stand-in, which composes at the first call.
    const lazy = (r: { composed: unknown }) => String(r.composed).includes("compile()");
    expect(streamed.filter(lazy)).toEqual([]);
    expect(env.app.routes.filter(lazy).length).toBeGreaterThan(100);
  });
});

describe("a wrong method on an existing path", () => {
  test.each([
    ["DELETE", "/api/health", "GET, HEAD"],
    ["GET", "/api/auth/login", "POST"],
    ["PATCH", "/api/pages/0190aaaa-0000-7000-8000-000000000000", "DELETE, GET, HEAD, PUT"],
  ])("%s %s is a 405 with Allow: %s", async (method, path, allow) => {
    const res = await call(env, method, path);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    expect(res.body).toMatchObject({ code: "method_not_allowed" });
  });

  test("a path nobody answers is still a 404", async () => {
    expect((await call(env, "DELETE", "/api/nothing/here")).status).toBe(404);
  });
});

describe("validation messages say what is allowed", () => {
  test.each([
    ["GET", "/api/pages/0190aaaa-0000-7000-8000-000000000000/versions/abc", undefined, "number", "must be a whole number of at least 1"],
    ["GET", "/api/notifications?unreadOnly=yes", undefined, "unreadOnly", "must be true or false"],
    ["POST", "/api/auth/login", { email: "a@b.c", password: 5 }, "password", "must be text of at most 1024 characters"],
    ["POST", "/api/admin/invites", { email: 5 }, "email", "must be text of at most 320 characters or null"],
  ])("%s %s", async (method, path, body, field, reason) => {
    const owner = await signUp(env, "owner@example.com");
    const res = await call(env, method, path, { as: owner, body });
    expect(res.status).toBe(400);
    expect(res.body.errors[field]).toEqual([reason]);
    expect(res.text).not.toContain("union value");
  });
});
