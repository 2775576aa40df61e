import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, signUp, type TestEnv } from "../../tests/harness";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

describe("GET /api/users", () => {
  test("lists active accounts for signed-in callers only", async () => {
    const { owner, member } = await ownerAndMember(env);
    expect((await call(env, "GET", "/api/users")).status).toBe(401);
    const res = await call(env, "GET", "/api/users", { as: member });
    expect(res.status).toBe(200);
    expect(res.body.map((u: any) => u.email).sort()).toEqual(["member@example.com", "owner@example.com"]);
    expect(Object.keys(res.body[0]).sort()).toEqual(["avatarUrl", "avatarVariant", "displayName", "email", "id"]);
    env.core.sqlite.query("UPDATE users SET status = 1 WHERE id = ?").run(member.id);
    const after = await call(env, "GET", "/api/users", { as: owner });
    expect(after.body.map((u: any) => u.email)).toEqual(["owner@example.com"]);
  });
});

describe("/api/admin/invites", () => {
  test("create, list pending, withdraw", async () => {
    const owner = await signUp(env, "owner@example.com");
    const created = await call(env, "POST", "/api/admin/invites", {
      as: owner,
      body: { email: "new@example.com", expiresInDays: 3, sendEmail: true, message: "Welcome" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email: "new@example.com", emailSent: false });
    expect(created.body.emailStatus).toContain("share the link");
    const list = await call(env, "GET", "/api/admin/invites", { as: owner });
    expect(list.body.map((i: any) => i.id)).toEqual([created.body.id]);
    expect(list.text).not.toContain(created.body.token);
    expect((await call(env, "DELETE", `/api/admin/invites/${created.body.id}`, { as: owner })).status).toBe(204);
    expect((await call(env, "GET", "/api/admin/invites", { as: owner })).body).toEqual([]);
    expect((await call(env, "DELETE", `/api/admin/invites/${created.body.id}`, { as: owner })).status).toBe(404);
    const use = await call(env, "POST", "/api/auth/register", {
      body: { email: "new@example.com", displayName: "N", password: "correct horse battery staple", inviteToken: created.body.token },
    });
    expect(use.status).toBe(400);
  });

  test("used and expired invites leave the pending list", async () => {
    const owner = await signUp(env, "owner@example.com");
    const a = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
    await call(env, "POST", "/api/admin/invites", { as: owner, body: { expiresInDays: 1 } });
    await signUp(env, "a@example.com", { inviteToken: a.body.token });
    env.clock.advance(86_400_001);
    expect((await call(env, "GET", "/api/admin/invites", { as: owner })).body).toEqual([]);
  });

  test("needs the right users.invite", async () => {
    const { member } = await ownerAndMember(env);
    for (const [method, path] of [
      ["GET", "/api/admin/invites"],
      ["POST", "/api/admin/invites"],
      ["DELETE", "/api/admin/invites/x"],
    ]) {
      const res = await call(env, method, path, { as: member, body: method === "POST" ? {} : undefined });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: "permission_required", permission: "users.invite" });
    }
    expect((await call(env, "GET", "/api/admin/invites")).status).toBe(401);
  });

  test("a token of an administrator may invite", async () => {
    const owner = await signUp(env, "owner@example.com");
    const token = await mintToken(env, owner);
    expect((await call(env, "POST", "/api/admin/invites", { as: { token }, body: {} })).status).toBe(201);
  });

  test.each([
    [{ expiresInDays: 0 }, "expiresInDays"],
    [{ expiresInDays: 91 }, "expiresInDays"],
    [{ email: "nope" }, "email"],
    [{ sendEmail: "yes" }, "sendEmail"],
    [{ message: "x".repeat(2001) }, "message"],
  ])("rejects %j naming %s", async (body, field) => {
    const owner = await signUp(env, "owner@example.com");
    const res = await call(env, "POST", "/api/admin/invites", { as: owner, body });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });
});
