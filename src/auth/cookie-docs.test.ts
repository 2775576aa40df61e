/**
 * Re-authentication and a password change replace the session cookie (a stolen value is worth
 * nothing after the proof), so a script replaying a cookie file with `curl -b jar` gets 401 next.
 * The behaviour stays; the OpenAPI document says so where clients look, and the behaviour is
 * exactly what it says.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, cookieFrom, makeEnv, PASSWORD, signUp, type TestEnv } from "../../tests/harness";

let env: TestEnv;
let doc: any;
beforeAll(async () => {
  env = makeEnv();
  doc = (await call(env, "GET", "/api/openapi.json")).body;
});
afterAll(() => env.close());

const operation = (path: string, method: string) => doc.paths[path][method];
const cookieHeader = (op: any, status: string) => op.responses[status].headers?.["Set-Cookie"]?.schema?.description ?? "";

describe("the OpenAPI document", () => {
  test.each([
    ["/api/auth/reauth", "post"],
    ["/api/auth/me/password", "put"],
  ])("%s says a new session cookie is issued and the old one stops working", (path, method) => {
    const op = operation(path, method);
    expect(op.description).toContain("Issues a new session cookie");
    expect(op.description).toContain("the cookie sent with this request stops working at once");
    expect(op.description).toContain("curl -c jar -b jar");
    expect(cookieHeader(op, "204")).toContain("the cookie sent with the request no longer works");
  });

  test("POST /api/auth/login says every sign-in issues a new cookie to save", () => {
    const op = operation("/api/auth/login", "post");
    expect(op.description).toContain("Issues a new session cookie");
    expect(op.description).toContain("curl -c jar");
    expect(cookieHeader(op, "200")).toContain("save it");
  });
});

describe("what it says is what happens", () => {
  test("after reauth and a password change the cookie sent stops working; after sign-in an earlier one keeps working", async () => {
    const first = { cookie: (await signUp(env, "owner@example.com")).cookie };
    const login = await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: PASSWORD } });
    const second = { cookie: cookieFrom(login) };
    expect((await call(env, "GET", "/api/auth/me", { as: first })).status).toBe(200);

    const reauth = await call(env, "POST", "/api/auth/reauth", { as: second, body: { password: PASSWORD } });
    expect((await call(env, "GET", "/api/auth/me", { as: second })).status).toBe(401);
    const third = { cookie: cookieFrom(reauth) };
    const change = await call(env, "PUT", "/api/auth/me/password", {
      as: third,
      body: { currentPassword: PASSWORD, newPassword: "a brand new passphrase" },
    });
    expect(change.status).toBe(204);
    expect((await call(env, "GET", "/api/auth/me", { as: third })).status).toBe(401);
    expect((await call(env, "GET", "/api/auth/me", { as: { cookie: cookieFrom(change) } })).status).toBe(200);
  });
});
