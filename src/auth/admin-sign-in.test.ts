/**
 * The sign-in side of account administration: one-time reset links (made by an administrator,
 * used at POST /api/auth/recover/token), unlocking, signing out everywhere, revoking tokens,
 * switching off two-factor; and whether invites can be e-mailed.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { BASE, call, cookieFrom, makeEnv, mintToken, ownerAndMember, PASSWORD, type TestEnv } from "../../tests/harness";
import { auditOf, auditRows } from "../audit/testing";
import { createSession } from "./sessions";
import { setSetting } from "../settings/service";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const NEW_PASSWORD = "a brand new passphrase";
const signIn = (email: string, password: string) => call(env, "POST", "/api/auth/login", { body: { email, password } });

async function resetLink(as: { cookie?: string }, userId: string) {
  const res = await call(env, "POST", `/api/admin/users/${userId}/reset-password`, { as });
  expect(res.status).toBe(201);
  return res.body as { token: string; path: string; url: string | null; expiresAt: string; emailed: boolean; emailStatus: string };
}

describe("reset links", () => {
  test(
    "the administrator gets a one-time link (not e-mailed, and says why); using " +
      "it sets the password, ends every session and works once",
    async () => {
      const { owner, member } = await ownerAndMember(env);
      const link = await resetLink(owner, member.id);
      expect(link.path).toBe(`/reset-password?token=${link.token}`);
      expect(link.url).toBeNull();
      expect(link.emailed).toBe(false);
      expect(link.emailStatus).toContain("not set up");
      expect(Date.parse(link.expiresAt) - env.clock.now()).toBe(24 * 3_600_000);

      const used = await call(env, "POST", "/api/auth/recover/token", { body: { token: link.token, newPassword: NEW_PASSWORD } });
      expect(used.status).toBe(204);
      expect(used.headers.get("set-cookie")).toBeNull();
      expect((await call(env, "GET", "/api/auth/me", { as: member })).status).toBe(401);
      expect((await signIn("member@example.com", PASSWORD)).status).toBe(401);
      expect((await signIn("member@example.com", NEW_PASSWORD)).status).toBe(200);

      const again = await call(env, "POST", "/api/auth/recover/token", {
        body: { token: link.token, newPassword: "yet another passphrase" },
      });
      expect(again.body).toMatchObject({ status: 400, field: "token" });
      expect(auditOf(env, "user.password_reset_link")).toMatchObject([
        { actorId: owner.id, targetId: member.id, details: { emailed: false, replaced: 0 } },
      ]);
      expect(auditOf(env, "user.password_reset")).toMatchObject([
        { actorId: member.id, targetId: member.id, details: { via: "link", sessionsSignedOut: 1 } },
      ]);
      const log = JSON.stringify(auditRows(env));
      for (const secret of [link.token, NEW_PASSWORD]) expect(log).not.toContain(secret);
    },
  );

  test("the whole link when the server knows its address", async () => {
    env.close();
    env = makeEnv({ env: { CAIRN_BASE_URL: "https://wiki.example.com" } });
    const { owner, member } = await ownerAndMember(env);
    const link = await resetLink(owner, member.id);
    expect(link.url).toBe(`https://wiki.example.com${link.path}`);
  });

  test("a new link replaces the unused one; a link expires after 24 hours", async () => {
    const { owner, member } = await ownerAndMember(env);
    const first = await resetLink(owner, member.id);
    const second = await resetLink(owner, member.id);
    expect(
      (await call(env, "POST", "/api/auth/recover/token", { body: { token: first.token, newPassword: NEW_PASSWORD } })).body,
    ).toMatchObject({ status: 400, field: "token" });
    env.clock.advance(24 * 3_600_000);
    const late = await call(env, "POST", "/api/auth/recover/token", { body: { token: second.token, newPassword: NEW_PASSWORD } });
    expect(late.body).toMatchObject({ status: 400, field: "token" });
    expect(late.body.detail).toContain("ask an administrator");
  });

  test.each([
    [{ token: "nope", newPassword: NEW_PASSWORD }, "token"],
    [{ token: "", newPassword: NEW_PASSWORD }, "token"],
    [{ newPassword: NEW_PASSWORD }, "token"],
    [{ token: 5, newPassword: NEW_PASSWORD }, "token"],
    [{ token: "x".repeat(201), newPassword: NEW_PASSWORD }, "token"],
    [{ token: "LINK", newPassword: "short" }, "newPassword"],
    [{ token: "LINK", newPassword: "password123" }, "newPassword"],
    [{ token: "LINK" }, "newPassword"],
    [{ token: "LINK", newPassword: NEW_PASSWORD, email: "x@example.com" }, "email"],
  ])("POST /api/auth/recover/token %j is 400 naming %s; the link still works after", async (body, field) => {
    const { owner, member } = await ownerAndMember(env);
    const link = await resetLink(owner, member.id);
    const sent = JSON.parse(JSON.stringify(body).replace('"LINK"', JSON.stringify(link.token)));
    expect((await call(env, "POST", "/api/auth/recover/token", { body: sent })).body).toMatchObject({ status: 400, field });
    expect((await call(env, "POST", "/api/auth/recover/token", { body: { token: link.token, newPassword: NEW_PASSWORD } })).status).toBe(
      204,
    );
  });

  test("making a link for someone else needs a recent password confirmation, as a role change does; a token never can", async () => {
    const { owner, member } = await ownerAndMember(env);
    const stale = { cookie: createSession(env.core, owner.id, { ip: "local", userAgent: null, reauthAt: null }).value };
    const token = await mintToken(env, owner);
    for (const as of [stale, { token }]) {
      const link = await call(env, "POST", `/api/admin/users/${member.id}/reset-password`, { as });
      const role = await call(env, "PUT", `/api/admin/users/${member.id}/role`, { as, body: { role: 0 } });
      expect(link.body).toMatchObject({ status: 403, code: "reauth_required" });
      expect({ code: link.body.code, detail: link.body.detail }).toEqual({ code: role.body.code, detail: role.body.detail });
    }
    // Past five minutes since it proved its password, even the signed-in owner's session is stale.
    env.clock.advance(5 * 60_000 + 1);
    expect((await call(env, "POST", `/api/admin/users/${member.id}/reset-password`, { as: owner })).body).toMatchObject({
      status: 403,
      code: "reauth_required",
    });
    expect(auditOf(env, "user.password_reset_link")).toEqual([]);
    const confirmed = await call(env, "POST", "/api/auth/reauth", { as: owner, body: { password: PASSWORD } });
    expect(confirmed.status).toBe(204);
    const link = await resetLink({ cookie: cookieFrom(confirmed) }, member.id);
    expect((await call(env, "POST", "/api/auth/recover/token", { body: { token: link.token, newPassword: NEW_PASSWORD } })).status).toBe(
      204,
    );
  });

  test("using a link lifts the account's sign-in locks", async () => {
    const { owner, member } = await ownerAndMember(env);
    setSetting(env.core, "lockoutThreshold", 2);
    for (let i = 0; i < 2; i++) await signIn("member@example.com", "wrong wrong wrong");
    expect((await signIn("member@example.com", PASSWORD)).status).toBe(429);
    const link = await resetLink(owner, member.id);
    await call(env, "POST", "/api/auth/recover/token", { body: { token: link.token, newPassword: NEW_PASSWORD } });
    expect((await signIn("member@example.com", NEW_PASSWORD)).status).toBe(200);
  });
});

describe("unlock, sessions, tokens, two-factor", () => {
  test("unlock lifts the locks of every address and the count of wrong passwords", async () => {
    const { owner, member } = await ownerAndMember(env);
    setSetting(env.core, "lockoutThreshold", 2);
    const from = async (ip: string, password: string) => {
      const res = await env.handle(
        new Request(`${BASE}/api/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
          body: JSON.stringify({ email: "member@example.com", password }),
        }),
        ip,
      );
      return res.status;
    };
    for (const ip of ["203.0.113.9", "198.51.100.4"]) for (let i = 0; i < 2; i++) await from(ip, "wrong wrong wrong");
    expect(await from("203.0.113.9", PASSWORD)).toBe(429);
    const row = async () => (await call(env, "GET", "/api/admin/users", { as: owner })).body.find((u: any) => u.id === member.id);
    expect((await row()).lockedUntil).not.toBeNull();
    expect((await call(env, "POST", `/api/admin/users/${member.id}/unlock`, { as: owner })).status).toBe(204);
    expect(await row()).toMatchObject({ lockedUntil: null, failedSignIns: 0 });
    expect(await from("203.0.113.9", PASSWORD)).toBe(200);
    expect(await from("198.51.100.4", PASSWORD)).toBe(200);
    expect(auditOf(env, "user.unlocked")).toMatchObject([{ actorId: owner.id, targetId: member.id, details: { cleared: true } }]);
  });

  test("revoke-sessions signs the account out everywhere; revoke-tokens stops every token for good", async () => {
    const { owner, member } = await ownerAndMember(env);
    const second = createSession(env.core, member.id, { ip: "local", userAgent: null }).value;
    const token = await mintToken(env, member);
    const ended = await call(env, "POST", `/api/admin/users/${member.id}/revoke-sessions`, { as: owner });
    expect(ended.body).toEqual({ count: 2 });
    for (const cookie of [member.cookie, second]) expect((await call(env, "GET", "/api/auth/me", { as: { cookie } })).status).toBe(401);
    expect((await call(env, "GET", "/api/auth/me", { as: { token } })).status).toBe(200);
    expect((await call(env, "POST", `/api/admin/users/${member.id}/revoke-tokens`, { as: owner })).body).toEqual({ count: 1 });
    expect((await call(env, "GET", "/api/auth/me", { as: { token } })).body).toMatchObject({ status: 401, code: "invalid_token" });
    expect((await call(env, "POST", `/api/admin/users/${member.id}/revoke-tokens`, { as: owner })).body).toEqual({ count: 0 });
    expect(auditOf(env, "user.sessions_revoked")).toMatchObject([{ actorId: owner.id, targetId: member.id, details: { count: 2 } }]);
    expect(auditOf(env, "user.tokens_revoked").map((e) => e.details.count)).toEqual([1, 0]);
  });

  test(
    "disable-two-factor: 409 two_factor_off while it is off; switches it " + "off when on; needs a recent password confirmation",
    async () => {
      const { owner, member } = await ownerAndMember(env);
      const off = await call(env, "POST", `/api/admin/users/${member.id}/disable-two-factor`, { as: owner });
      expect(off.body).toMatchObject({ status: 409, code: "two_factor_off" });
      env.core.sqlite.query("UPDATE users SET totp_enabled = 1 WHERE id = ?").run(member.id);
      const token = await mintToken(env, owner);
      expect((await call(env, "POST", `/api/admin/users/${member.id}/disable-two-factor`, { as: { token } })).body).toMatchObject({
        status: 403,
        code: "reauth_required",
      });
      expect((await call(env, "POST", `/api/admin/users/${member.id}/disable-two-factor`, { as: owner })).status).toBe(204);
      expect((await call(env, "GET", "/api/auth/me", { as: member })).body.totpEnabled).toBe(false);
      expect(auditOf(env, "user.two_factor_disabled")).toMatchObject([{ actorId: owner.id, targetId: member.id }]);
    },
  );

  test("every action needs users.manage", async () => {
    const { owner, member } = await ownerAndMember(env);
    for (const action of ["reset-password", "revoke-sessions", "revoke-tokens", "unlock", "disable-two-factor"]) {
      expect((await call(env, "POST", `/api/admin/users/${owner.id}/${action}`, { as: member })).body).toMatchObject({
        status: 403,
        code: "permission_required",
        permission: "users.manage",
      });
    }
  });
});

describe("GET /api/admin/invites/email", () => {
  test("says invites cannot be e-mailed yet, and why; needs users.invite", async () => {
    const { owner, member } = await ownerAndMember(env);
    const res = await call(env, "GET", "/api/admin/invites/email", { as: owner });
    expect(res.body).toEqual({ enabled: false, reason: expect.stringContaining("not set up") });
    expect((await call(env, "GET", "/api/admin/invites/email", { as: member })).body).toMatchObject({
      status: 403,
      permission: "users.invite",
    });
    expect((await call(env, "GET", "/api/admin/invites/email")).status).toBe(401);
  });
});
