/**
 * /api/admin/users: the list, role changes and the owner's protection, with their invariants
 * (nobody acts on the owner, tiers, the last administrator) and bad input. Suspension and
 * ownership are in admin-users-status.test.ts; the sign-in side (reset links, unlock, sessions,
 * tokens) is in src/auth/admin-sign-in.test.ts.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, PASSWORD, type TestEnv } from "../../tests/harness";
import { auditOf } from "../audit/testing";
import { createSession } from "../auth/sessions";
import { ROLE_ID } from "../identity/rights";
import { newId } from "../platform/crypto";
import { adminUsersKit } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const { invitee, team, customRole, put, post } = adminUsersKit(() => env);

describe("GET /api/admin/users", () => {
  test("every account with role, status, two-factor, last seen and sign-in failures; owner first", async () => {
    const { owner, admin, member } = await team();
    env.core.sqlite.query("UPDATE users SET status = 1 WHERE id = ?").run(member.id);
    await call(env, "POST", "/api/auth/login", { body: { email: "ada@example.com", password: "not the password" } });
    const res = await call(env, "GET", "/api/admin/users", { as: owner });
    expect(res.status).toBe(200);
    expect(res.body.map((u: any) => u.displayName)).toEqual(["Olive Owner", "Ada", "Max"]);
    const [o, a, m] = res.body;
    expect(o).toMatchObject({
      id: owner.id,
      role: 2,
      roleId: ROLE_ID.owner,
      roleName: "Owner",
      isOwner: true,
      status: 0,
      twoFactorEnabled: false,
      recoveryCodesLeft: null,
      failedSignIns: 0,
      lockedUntil: null,
      lockScope: null,
    });
    expect(a).toMatchObject({ id: admin.id, role: 1, roleName: "Administrator", isOwner: false, failedSignIns: 1 });
    expect(m).toMatchObject({ id: member.id, role: 0, roleName: "User", status: 1 });
    expect(typeof o.lastSeenAt).toBe("string");
    expect(Object.keys(o).sort()).toEqual(
      [
        "avatarUrl",
        "avatarVariant",
        "createdAt",
        "displayName",
        "email",
        "failedSignIns",
        "id",
        "isOwner",
        "lastSeenAt",
        "lockScope",
        "lockedUntil",
        "recoveryCodesLeft",
        "role",
        "roleId",
        "roleName",
        "status",
        "twoFactorEnabled",
      ].sort(),
    );
  });

  test("last seen is the latest use of a session or a token", async () => {
    const { owner, member } = await team();
    const token = await mintToken(env, member);
    env.core.sqlite.query("DELETE FROM sessions WHERE user_id = ?").run(member.id);
    const seen = async () =>
      (await call(env, "GET", "/api/admin/users", { as: owner })).body.find((u: any) => u.id === member.id).lastSeenAt;
    expect(await seen()).toBeNull();
    env.clock.advance(60_000);
    await call(env, "GET", "/api/auth/me", { as: { token } });
    expect(await seen()).toBe(new Date(env.clock.now()).toISOString());
  });

  test("a lock shows until when, and whether for every address", async () => {
    const { owner, member } = await team();
    const until = new Date(env.clock.now() + 600_000).toISOString();
    env.core.sqlite
      .query(
        "INSERT INTO sign_in_failures (user_id, address, failures, lockouts, locked_until, recent, " +
          "recent_since, last_failure_at) VALUES (?, '203.0.113.9', 0, 1, ?, 5, ?, ?)",
      )
      .run(member.id, until, until, until);
    const row = async () => (await call(env, "GET", "/api/admin/users", { as: owner })).body.find((u: any) => u.id === member.id);
    expect(await row()).toMatchObject({ lockedUntil: until, lockScope: "address" });
    env.core.sqlite.query("UPDATE users SET locked_until = ? WHERE id = ?").run(until, member.id);
    expect(await row()).toMatchObject({ lockedUntil: until, lockScope: "account" });
    env.clock.advance(600_001);
    expect(await row()).toMatchObject({ lockedUntil: null, lockScope: null });
  });

  test("needs users.manage: a member gets 403 permission_required, nobody signed in 401", async () => {
    const { member } = await team();
    expect((await call(env, "GET", "/api/admin/users", { as: member })).body).toMatchObject({
      status: 403,
      code: "permission_required",
      permission: "users.manage",
    });
    expect((await call(env, "GET", "/api/admin/users")).status).toBe(401);
  });
});

describe("PUT /api/admin/users/{id}/role", () => {
  test("a tier or a role id; takes effect on the very next request; audited", async () => {
    const { owner, member } = await team();
    expect((await call(env, "GET", "/api/admin/users", { as: member })).status).toBe(403);
    const promoted = await put(owner, `/api/admin/users/${member.id}/role`, { role: 1 });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ id: member.id, role: 1, roleId: ROLE_ID.admin, roleName: "Administrator" });
    expect((await call(env, "GET", "/api/admin/users", { as: member })).status).toBe(200);
    const editors = customRole("Editors", 0, ["spaces.create"]);
    expect((await put(owner, `/api/admin/users/${member.id}/role`, { roleId: editors })).body).toMatchObject({
      role: 0,
      roleId: editors,
      roleName: "Editors",
    });
    expect((await call(env, "GET", "/api/auth/me", { as: member })).body).toMatchObject({
      roleName: "Editors",
      permissions: ["spaces.create"],
    });
    expect(auditOf(env, "user.role_changed").map((e) => [e.actorId, e.targetId, e.details.from.roleName, e.details.to.roleName])).toEqual([
      [owner.id, member.id, "User", "Administrator"],
      [owner.id, member.id, "Administrator", "Editors"],
    ]);
  });

  test("the Owner tier is never given here: 400 naming role or roleId", async () => {
    const { owner, member } = await team();
    expect((await put(owner, `/api/admin/users/${member.id}/role`, { role: 2 })).body).toMatchObject({ status: 400, field: "role" });
    const res = await put(owner, `/api/admin/users/${member.id}/role`, { roleId: ROLE_ID.owner });
    expect(res.body).toMatchObject({ status: 400, field: "roleId" });
    expect(res.body.detail).toContain("transfer");
  });

  test("needs a recent password confirmation; a token never can", async () => {
    const { owner, member } = await team();
    const stale = createSession(env.core, owner.id, { ip: "local", userAgent: null, reauthAt: null }).value;
    expect((await put({ cookie: stale }, `/api/admin/users/${member.id}/role`, { role: 1 })).body).toMatchObject({
      status: 403,
      code: "reauth_required",
    });
    const token = await mintToken(env, owner);
    expect((await put({ token }, `/api/admin/users/${member.id}/role`, { role: 1 })).body).toMatchObject({
      status: 403,
      code: "reauth_required",
    });
    env.clock.advance(5 * 60_000 + 1);
    expect((await put(owner, `/api/admin/users/${member.id}/role`, { role: 1 })).body).toMatchObject({
      status: 403,
      code: "reauth_required",
    });
    expect((await post(owner, "/api/auth/reauth", { password: PASSWORD })).status).toBe(204);
    expect(auditOf(env, "user.role_changed")).toEqual([]);
  });

  test("a Member-tier role holding users.manage manages members, not administrators, and gives no Admin-tier role", async () => {
    const { owner, admin, member } = await team();
    const clerk = await invitee(owner, "Clerk", customRole("Clerks", 0, ["users.manage"]));
    expect((await put(clerk, `/api/admin/users/${member.id}/role`, { role: 0 })).status).toBe(200);
    expect((await put(clerk, `/api/admin/users/${member.id}/role`, { role: 1 })).body).toMatchObject({ status: 403, code: "higher_tier" });
    expect((await put(clerk, `/api/admin/users/${clerk.id}/role`, { role: 1 })).body).toMatchObject({ status: 403, code: "higher_tier" });
    expect((await put(clerk, `/api/admin/users/${admin.id}/role`, { role: 0 })).body).toMatchObject({ status: 403, code: "higher_tier" });
    expect((await put(clerk, `/api/admin/users/${admin.id}/status`, { status: 1 })).body).toMatchObject({
      status: 403,
      code: "higher_tier",
    });
    expect((await post(clerk, `/api/admin/users/${admin.id}/reset-password`)).body).toMatchObject({ status: 403, code: "higher_tier" });
  });

  test("an Admin-tier role holding users.manage reaches no account, and gives no role, holding rights it lacks", async () => {
    const { owner, admin, member } = await team();
    const helpdesk = await invitee(owner, "Helpdesk", customRole("Helpdesk", 1, ["users.manage"]));
    const keeper = await invitee(owner, "Keeper", customRole("Keepers", 1, ["backups.restore"]));
    // A member holds only what every User holds: within reach.
    expect((await post(helpdesk, `/api/admin/users/${member.id}/reset-password`)).status).toBe(201);
    for (const target of [admin.id, keeper.id]) {
      const res = await post(helpdesk, `/api/admin/users/${target}/reset-password`);
      expect(res.body).toMatchObject({ status: 403, code: "higher_rights" });
      expect((await put(helpdesk, `/api/admin/users/${target}/status`, { status: 1 })).body).toMatchObject({
        status: 403,
        code: "higher_rights",
      });
    }
    expect((await post(helpdesk, `/api/admin/users/${keeper.id}/reset-password`)).body.rights).toEqual(["backups.restore"]);
    // Nor may it hand a member the Administrator role, which holds rights it lacks.
    expect((await put(helpdesk, `/api/admin/users/${member.id}/role`, { role: 1 })).body).toMatchObject({
      status: 403,
      code: "higher_rights",
    });
    // The owner reaches everyone below the owner.
    expect((await post(owner, `/api/admin/users/${keeper.id}/reset-password`)).status).toBe(201);
  });
});

describe("nobody acts on the owner", () => {
  test.each([
    ["PUT", "role", { role: 1 }],
    ["PUT", "status", { status: 1 }],
    ["POST", "reset-password", undefined],
    ["POST", "revoke-sessions", undefined],
    ["POST", "revoke-tokens", undefined],
    ["POST", "unlock", undefined],
    ["POST", "disable-two-factor", undefined],
  ])("%s …/%s on the owner is 403 owner_protected, for an administrator and the owner alike", async (method, action, body) => {
    const { owner, admin } = await team();
    for (const who of [admin, owner]) {
      const res = await call(env, method, `/api/admin/users/${owner.id}/${action}`, { as: who, body });
      expect(res.body).toMatchObject({ status: 403, code: "owner_protected" });
      expect(res.body.detail).toContain("transfer");
    }
    expect((await call(env, "GET", "/api/auth/me", { as: owner })).body).toMatchObject({ status: 0, roleName: "Owner" });
  });
});

describe("bad input", () => {
  const cases: Array<[string, string, string, unknown, number, string | null]> = [
    ["role: unknown field", "PUT", "role", { role: 1, colour: "red" }, 400, "colour"],
    ["role: a numeric string", "PUT", "role", { role: "1" }, 400, "role"],
    ["role: out of range", "PUT", "role", { role: 3 }, 400, "role"],
    ["role: neither role nor roleId", "PUT", "role", {}, 400, "role"],
    ["role: both role and roleId", "PUT", "role", { role: 1, roleId: ROLE_ID.admin }, 400, "role"],
    ["role: unknown role id", "PUT", "role", { roleId: "no-such-role" }, 400, "roleId"],
    ["role: roleId not a string", "PUT", "role", { roleId: 7 }, 400, "roleId"],
    ["status: a string", "PUT", "status", { status: "1" }, 400, "status"],
    ["status: out of range", "PUT", "status", { status: 2 }, 400, "status"],
    ["status: missing", "PUT", "status", {}, 400, "status"],
    ["status: unknown field", "PUT", "status", { status: 1, reason: "left" }, 400, "reason"],
  ];
  test.each(cases)("%s", async (_what, method, action, body, status, field) => {
    const { owner, member } = await team();
    const res = await call(env, method, `/api/admin/users/${member.id}/${action}`, { as: owner, body });
    expect(res.status).toBe(status);
    if (field) expect(res.body.field).toBe(field);
    expect((await call(env, "GET", "/api/auth/me", { as: member })).body).toMatchObject({ status: 0, roleName: "User" });
  });

  test.each([
    ["PUT", "role", { role: 1 }],
    ["PUT", "status", { status: 1 }],
    ["POST", "reset-password", undefined],
    ["POST", "revoke-sessions", undefined],
    ["POST", "revoke-tokens", undefined],
    ["POST", "unlock", undefined],
    ["POST", "disable-two-factor", undefined],
    ["POST", "transfer-ownership", undefined],
  ])("%s …/%s on an unknown account is 404", async (method, action, body) => {
    const { owner } = await team();
    expect((await call(env, method, `/api/admin/users/${newId()}/${action}`, { as: owner, body })).status).toBe(404);
  });
});
