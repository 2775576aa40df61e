import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, cookieFrom, makeEnv, mintToken, PASSWORD, signUp, type TestEnv } from "../../tests/harness";
import { callerOf } from "../http/request-state";
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
