import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, signUp, type TestEnv } from "../../tests/harness";
import { setSetting } from "../settings/service";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const DAY = 86_400_000;

describe("API tokens", () => {
  test("the value is cct_ + 32 random bytes, answered once; only a fingerprint is stored", async () => {
    const owner = await signUp(env, "owner@example.com");
    const res = await call(env, "POST", "/api/api-tokens", { as: owner, body: { name: "CI", readOnly: true, expiresInDays: 30 } });
    expect(res.status).toBe(201);
    expect(res.body.token).toMatch(/^cct_[A-Za-z0-9_-]{43,}$/);
    expect(res.body).toMatchObject({ name: "CI", readOnly: true, useCount: 0, lastUsedAt: null, prefix: res.body.token.slice(0, 12) });
    const list = await call(env, "GET", "/api/api-tokens", { as: owner });
    expect(list.body).toHaveLength(1);
    expect(list.text).not.toContain(res.body.token);
    const stored = env.core.sqlite.query("SELECT * FROM api_tokens").all();
    expect(JSON.stringify(stored)).not.toContain(res.body.token);
  });

  test("a token acts as its owner and counts its use", async () => {
    const owner = await signUp(env, "owner@example.com");
    const token = await mintToken(env, owner);
    for (let i = 0; i < 3; i++) expect((await call(env, "GET", "/api/auth/me", { as: { token } })).body.email).toBe("owner@example.com");
    const [row] = (await call(env, "GET", "/api/api-tokens", { as: owner })).body;
    expect(row.useCount).toBe(3);
    expect(row.lastUsedAt).not.toBeNull();
  });

  test("token management refuses tokens", async () => {
    const owner = await signUp(env, "owner@example.com");
    const token = await mintToken(env, owner);
    const bodies: Record<string, object> = {
      "/api/api-tokens": { name: "x" },
      "/api/auth/me/password": { currentPassword: "x", newPassword: "y" },
      "/api/auth/reauth": { password: "z" },
    };
    for (const [method, path] of [
      ["GET", "/api/api-tokens"],
      ["POST", "/api/api-tokens"],
      ["DELETE", "/api/api-tokens/x"],
      ["GET", "/api/auth/me/sessions"],
      ["PUT", "/api/auth/me/password"],
      ["POST", "/api/auth/logout"],
      ["POST", "/api/auth/reauth"],
    ]) {
      const res = await call(env, method, path, { as: { token }, body: method === "GET" ? undefined : (bodies[path] ?? {}) });
      expect([method, path, res.status, res.body.code]).toEqual([method, path, 403, "token_not_allowed"]);
    }
  });

  test("read-only tokens may only read", async () => {
    const owner = await signUp(env, "owner@example.com");
    const token = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect((await call(env, "GET", "/api/auth/me", { as: { token } })).status).toBe(200);
    for (const [method, path] of [
      ["POST", "/api/admin/invites"],
      ["PUT", "/api/admin/settings"],
      ["DELETE", "/api/admin/invites/0190b7c2-0000-7000-8000-000000000000"],
    ] as const) {
      const res = await call(env, method, path, { as: { token }, body: {} });
      expect([method, res.status, res.body.code]).toEqual([method, 403, "read_only_token"]);
    }
    // No route takes PATCH: a 405 naming the methods the path takes, whoever asks.
    expect((await call(env, "PATCH", "/api/admin/invites", { as: { token }, body: {} })).status).toBe(405);
  });

  test.each([
    ["wrong", (t: string) => t.slice(0, -2) + "xx"],
    ["not a cct_ value", () => "abc"],
    ["empty", () => ""],
  ])("a %s token is 401 invalid_token, never anonymous", async (_name, mangle) => {
    const owner = await signUp(env, "owner@example.com");
    const token = mangle(await mintToken(env, owner));
    const res = await call(env, "GET", "/api/health", { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("invalid_token");
    expect(res.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
  });

  test("a non-Bearer Authorization header is 401 invalid_token", async () => {
    const res = await call(env, "GET", "/api/instance", { headers: { authorization: "Basic dXNlcjpwYXNz" } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("invalid_token");
  });

  test("revoked tokens stop at once and for good", async () => {
    const owner = await signUp(env, "owner@example.com");
    const created = await call(env, "POST", "/api/api-tokens", { as: owner, body: { name: "x" } });
    expect((await call(env, "DELETE", `/api/api-tokens/${created.body.id}`, { as: owner })).status).toBe(204);
    const res = await call(env, "GET", "/api/auth/me", { as: { token: created.body.token } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("invalid_token");
    expect((await call(env, "DELETE", `/api/api-tokens/${created.body.id}`, { as: owner })).status).toBe(404);
    expect((await call(env, "GET", "/api/api-tokens", { as: owner })).body).toHaveLength(0);
  });

  test("someone else's token id is a 404 and stays valid", async () => {
    const { owner, member } = await ownerAndMember(env);
    const theirs = await call(env, "POST", "/api/api-tokens", { as: member, body: { name: "m" } });
    expect((await call(env, "DELETE", `/api/api-tokens/${theirs.body.id}`, { as: owner })).status).toBe(404);
    expect((await call(env, "GET", "/api/auth/me", { as: { token: theirs.body.token } })).status).toBe(200);
  });

  test("expired tokens are 401; tokens without expiry last", async () => {
    const owner = await signUp(env, "owner@example.com");
    const short = await mintToken(env, owner, { name: "s", expiresInDays: 1 });
    const forever = await mintToken(env, owner, { name: "f", expiresInDays: null });
    env.clock.advance(DAY + 1);
    expect((await call(env, "GET", "/api/auth/me", { as: { token: short } })).body.code).toBe("invalid_token");
    expect((await call(env, "GET", "/api/auth/me", { as: { token: forever } })).status).toBe(200);
  });

  test("a suspended owner's tokens stop, and work again when reactivated", async () => {
    const { member } = await ownerAndMember(env);
    const token = await mintToken(env, member);
    env.core.sqlite.query("UPDATE users SET status = 1 WHERE id = ?").run(member.id);
    expect((await call(env, "GET", "/api/auth/me", { as: { token } })).body.code).toBe("invalid_token");
    env.core.sqlite.query("UPDATE users SET status = 0 WHERE id = ?").run(member.id);
    expect((await call(env, "GET", "/api/auth/me", { as: { token } })).status).toBe(200);
  });

  test("losing the right tokens.use stops tokens until the right returns", async () => {
    const { member } = await ownerAndMember(env);
    const token = await mintToken(env, member);
    const setRights = (rights: string[]) =>
      env.core.sqlite.query("UPDATE roles SET permissions = ? WHERE name = 'User'").run(JSON.stringify(rights));
    setRights(["spaces.create"]);
    expect((await call(env, "GET", "/api/auth/me", { as: { token } })).body.code).toBe("invalid_token");
    const mint = await call(env, "POST", "/api/api-tokens", { as: member, body: { name: "no" } });
    expect(mint.status).toBe(403);
    expect(mint.body).toMatchObject({ code: "permission_required", permission: "tokens.use" });
    setRights(["spaces.create", "tokens.use"]);
    expect((await call(env, "GET", "/api/auth/me", { as: { token } })).status).toBe(200);
  });

  test.each([
    [{ name: " " }, "name"],
    [{ name: "x".repeat(101) }, "name"],
    [{}, "name"],
    [{ name: "x", expiresInDays: 0 }, "expiresInDays"],
    [{ name: "x", expiresInDays: 1.5 }, "expiresInDays"],
    [{ name: "x", readOnly: "yes" }, "readOnly"],
  ])("rejects %j naming %s", async (body, field) => {
    const owner = await signUp(env, "owner@example.com");
    const res = await call(env, "POST", "/api/api-tokens", { as: owner, body });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  test("minting is limited per hour (tokenMintLimitPerHour)", async () => {
    const owner = await signUp(env, "owner@example.com");
    setSetting(env.core, "tokenMintLimitPerHour", 3);
    for (let i = 0; i < 3; i++) await mintToken(env, owner, { name: `t${i}` });
    const over = await call(env, "POST", "/api/api-tokens", { as: owner, body: { name: "t4" } });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe("rate_limited");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    env.clock.advance(3_600_001);
    expect((await call(env, "POST", "/api/api-tokens", { as: owner, body: { name: "t5" } })).status).toBe(201);
  });
});
