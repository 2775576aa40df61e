import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, signUp, type TestEnv } from "../../tests/harness";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

describe("GET /api/health", () => {
  test("answers anonymously without the version", async () => {
    const res = await call(env, "GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", database: "ok" });
  });

  test("adds the version for a signed-in caller", async () => {
    const owner = await signUp(env, "owner@example.com");
    const res = await call(env, "GET", "/api/health", { as: owner });
    expect(res.body.version).toBe(env.core.version);
  });
});

describe("GET /api/instance", () => {
  test("reports needsOwner until the first account exists", async () => {
    const before = await call(env, "GET", "/api/instance");
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ name: "Cairn", needsOwner: true, allowPublicRegistration: false, version: env.core.version });
    expect(before.body.branding.brandName).toBe("Cairn");
    await signUp(env, "owner@example.com");
    const after = await call(env, "GET", "/api/instance");
    expect(after.body.needsOwner).toBe(false);
  });
});
