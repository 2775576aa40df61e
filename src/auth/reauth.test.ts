import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, cookieFrom, makeEnv, mintToken, PASSWORD, signUp, type TestEnv } from "../../tests/harness";
import { auditOf } from "../audit/testing";
import { callerOf } from "../http/request-state";
import { setSetting } from "../settings/service";
import { requireReauth } from "./service";

let env: TestEnv;
beforeEach(() => {
  env = makeEnv();
  // A destructive endpoint stand-in: the real ones (purge, space deletion…) call the same guard.
  env.app.post("/api/test-destroy", ({ request }) => {
    const caller = callerOf(request);
    if (caller.kind !== "user") return new Response(null, { status: 401 });
    requireReauth(env.core, caller);
    return { destroyed: true };
  });
});
afterEach(() => env.close());

describe("re-authentication window", () => {
  test("sign-in proves the password for five minutes; then POST /api/auth/reauth renews it", async () => {
    const owner = await signUp(env, "owner@example.com");
    const login = await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: PASSWORD } });
    const session = { cookie: cookieFrom(login) };
    expect((await call(env, "POST", "/api/test-destroy", { as: session })).status).toBe(200);
    env.clock.advance(5 * 60_000 + 1);
    const stale = await call(env, "POST", "/api/test-destroy", { as: session });
    expect(stale.status).toBe(403);
    expect(stale.body.code).toBe("reauth_required");

    const wrong = await call(env, "POST", "/api/auth/reauth", { as: session, body: { password: "not it at all" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.field).toBe("password");

    const ok = await call(env, "POST", "/api/auth/reauth", { as: session, body: { password: PASSWORD } });
    expect(ok.status).toBe(204);
    const renewed = { cookie: cookieFrom(ok) };
    // A new session id: the old value is worth nothing after the proof.
    expect(renewed.cookie).not.toBe(session.cookie);
    expect((await call(env, "GET", "/api/auth/me", { as: session })).status).toBe(401);
    expect((await call(env, "POST", "/api/test-destroy", { as: renewed })).status).toBe(200);
    void owner;
  });

  test("a token can never satisfy it", async () => {
    const owner = await signUp(env, "owner@example.com");
    const token = await mintToken(env, owner);
    const res = await call(env, "POST", "/api/test-destroy", { as: { token } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("reauth_required");
  });
});

describe("wrong passwords inside a session", () => {
  const WRONG = "not the password at all";
  const signIn = async () => ({
    cookie: cookieFrom(await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: PASSWORD } })),
  });
  const reauth = (as: { cookie: string }, password: string) => call(env, "POST", "/api/auth/reauth", { as, body: { password } });
  const changePassword = (as: { cookie: string }, currentPassword: string) =>
    call(env, "PUT", "/api/auth/me/password", { as, body: { currentPassword, newPassword: "a brand new secret" } });

  test.each([
    ["POST /api/auth/reauth", reauth, "password"],
    ["PUT /api/auth/me/password", changePassword, "currentPassword"],
  ] as const)("%s: they count towards the lock, and the one that locks ends the session", async (_name, attempt, field) => {
    await signUp(env, "owner@example.com");
    const session = await signIn();
    const answers = [];
    for (let i = 0; i < 30; i++) answers.push(await attempt(session, WRONG));
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400, ...Array(26).fill(401)]);
    expect(answers[0].body.field).toBe(field);
    expect(answers[4].headers.get("set-cookie")).toContain("Max-Age=0");
    expect(answers[4].body.detail).toBe(
      "Too many wrong passwords: this session has been signed out. This account is locked for sign-ins " +
        "from your address after too many wrong passwords; try again in 60 seconds.",
    );
    expect((await call(env, "GET", "/api/auth/me", { as: session })).status).toBe(401);
    expect((await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: PASSWORD } })).status).toBe(429);

    const [revoked] = auditOf(env, "session.revoked");
    expect(revoked).toMatchObject({ actorId: null, details: { reason: "too_many_wrong_passwords" } });
    // Only the failure that locks is audited: a refused change leaves no entry otherwise.
    expect(auditOf(env, "user.login_failed").map((e) => e.details)).toEqual([
      { reason: "wrong_password", locked: true, lockedForSeconds: 60, via: field === "password" ? "reauth" : "password_change" },
      { reason: "locked", lockedForSeconds: 60 },
    ]);
  });

  test("they add up with sign-in failures for the same account and address", async () => {
    await signUp(env, "owner@example.com");
    const session = await signIn();
    for (let i = 0; i < 2; i++)
      expect((await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: WRONG } })).status).toBe(401);
    expect((await reauth(session, WRONG)).status).toBe(400);
    expect((await changePassword(session, WRONG)).status).toBe(400);
    expect((await reauth(session, WRONG)).status).toBe(401);
    expect((await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: PASSWORD } })).status).toBe(429);
  });

  test("a locked account can neither re-authenticate nor change its password, but the session stays", async () => {
    await signUp(env, "owner@example.com");
    const session = await signIn();
    for (let i = 0; i < 5; i++) await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: WRONG } });
    const refused = await reauth(session, PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(refused.body.detail).toContain("locked");
    expect((await changePassword(session, PASSWORD)).status).toBe(429);
    expect((await call(env, "GET", "/api/auth/me", { as: session })).status).toBe(200);
    env.clock.advance(60_000);
    expect((await reauth(session, PASSWORD)).status).toBe(204);
  });

  test("no password at all is not a guess", async () => {
    await signUp(env, "owner@example.com");
    const session = await signIn();
    for (let i = 0; i < 10; i++) {
      const res = await call(env, "POST", "/api/auth/reauth", { as: session, body: {} });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ password: ["is required"] });
    }
    expect((await reauth(session, PASSWORD)).status).toBe(204);
  });

  test("the per-address limit of wrong passwords covers them too", async () => {
    await signUp(env, "owner@example.com");
    setSetting(env.core, "loginRateLimitPerMinute", 3);
    setSetting(env.core, "lockoutThreshold", 100);
    const session = await signIn();
    for (let i = 0; i < 3; i++) expect((await reauth(session, WRONG)).status).toBe(400);
    expect((await reauth(session, PASSWORD)).status).toBe(429);
    expect((await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: PASSWORD } })).status).toBe(429);
    env.clock.advance(60_000);
    expect((await reauth(session, PASSWORD)).status).toBe(204);
  });
});
