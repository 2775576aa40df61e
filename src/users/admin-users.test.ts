/**
 * /api/admin/users: the list, role changes, suspension and ownership, with their invariants
 * (nobody acts on the owner, tiers, the last administrator, one owner) and bad input.
 * The sign-in side (reset links, unlock, sessions, tokens) is in src/auth/admin-sign-in.test.ts.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, PASSWORD, signUp, type TestEnv } from "../../tests/harness";
import { auditOf } from "../audit/testing";
import { createSession } from "../auth/sessions";
import { ROLE_ID } from "../identity/rights";
import type { UserCaller } from "../identity/caller";
import { newId } from "../platform/crypto";
import { setStatus } from "../auth/admin-sign-in";
import { findUserWithRoleById } from "./service";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

type Person = Awaited<ReturnType<typeof signUp>>;

async function invitee(owner: Person, name: string, roleId?: string): Promise<Person> {
  const invite = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
  const who = await signUp(env, `${name.toLowerCase()}@example.com`, { inviteToken: invite.body.token, displayName: name });
  if (roleId) env.core.sqlite.query("UPDATE users SET role_id = ? WHERE id = ?").run(roleId, who.id);
  return who;
}

/** An owner, an administrator and a member, each signed in. */
async function team() {
  const owner = await signUp(env, "owner@example.com", { displayName: "Olive Owner" });
  const admin = await invitee(owner, "Ada", ROLE_ID.admin);
  const member = await invitee(owner, "Max");
  return { owner, admin, member };
}

function customRole(name: string, tier: number, permissions: string[]): string {
  const id = newId();
  env.core.sqlite
    .query("INSERT INTO roles (id, name, description, tier, built_in, permissions, created_at) VALUES (?, ?, '', ?, 0, ?, ?)")
    .run(id, name, tier, JSON.stringify(permissions), new Date(env.clock.now()).toISOString());
  return id;
}

const put = (as: Person | { cookie?: string; token?: string }, path: string, body: unknown) => call(env, "PUT", path, { as, body });
const post = (as: Person | { cookie?: string; token?: string }, path: string, body?: unknown) => call(env, "POST", path, { as, body });

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

describe("PUT /api/admin/users/{id}/status", () => {
  test(
    "suspending ends the account's sessions and stops its tokens on the very " + "next request; reactivating lets it sign in again",
    async () => {
      const { owner, member } = await team();
      const token = await mintToken(env, member);
      expect((await call(env, "GET", "/api/auth/me", { as: { token } })).status).toBe(200);
      const res = await put(owner, `/api/admin/users/${member.id}/status`, { status: 1 });
      expect(res.body).toMatchObject({ id: member.id, status: 1 });
      expect((await call(env, "GET", "/api/auth/me", { as: member })).status).toBe(401);
      expect((await call(env, "GET", "/api/auth/me", { as: { token } })).body).toMatchObject({ status: 401, code: "invalid_token" });
      expect(env.core.sqlite.query("SELECT count(*) AS n FROM sessions WHERE user_id = ?").get(member.id)).toEqual({ n: 0 });
      expect((await call(env, "POST", "/api/auth/login", { body: { email: "max@example.com", password: PASSWORD } })).status).toBe(403);
      expect((await put(owner, `/api/admin/users/${member.id}/status`, { status: 0 })).body).toMatchObject({ status: 0 });
      expect((await call(env, "POST", "/api/auth/login", { body: { email: "max@example.com", password: PASSWORD } })).status).toBe(200);
      expect((await call(env, "GET", "/api/auth/me", { as: { token } })).status).toBe(200);
      expect(auditOf(env, "user.suspended")).toMatchObject([{ actorId: owner.id, targetId: member.id, details: { sessionsEnded: 1 } }]);
      expect(auditOf(env, "user.reactivated")).toMatchObject([{ actorId: owner.id, targetId: member.id }]);
    },
  );

  test("a suspended account's session and token are refused even if they were left behind", async () => {
    const { owner, member } = await team();
    const token = await mintToken(env, member);
    await put(owner, `/api/admin/users/${member.id}/status`, { status: 1 });
    // A session made after the suspension (as a restore or a race could leave one): the caller resolution refuses it.
    const leftover = createSession(env.core, member.id, { ip: "local", userAgent: null, reauthAt: env.clock.now() }).value;
    expect((await call(env, "GET", "/api/auth/me", { as: { cookie: leftover } })).status).toBe(401);
    expect((await call(env, "GET", "/api/users", { as: { cookie: leftover } })).status).toBe(401);
    expect((await call(env, "GET", "/api/spaces", { as: { token } })).body).toMatchObject({ status: 401, code: "invalid_token" });
    expect((await call(env, "POST", "/api/api-tokens", { as: { cookie: leftover }, body: { name: "again" } })).status).toBe(401);
  });

  test("you cannot suspend yourself", async () => {
    const { admin } = await team();
    expect((await put(admin, `/api/admin/users/${admin.id}/status`, { status: 1 })).body).toMatchObject({
      status: 403,
      code: "own_account",
    });
    expect((await call(env, "GET", "/api/auth/me", { as: admin })).body.status).toBe(0);
  });

  // The owner is always an active administrator and nobody can suspend or demote them here, so
  // these rules bite only when the owner's account is not active (a database edited by hand).
  test("the last active administrator cannot be demoted, not even by themselves", async () => {
    const { owner, admin } = await team();
    const bea = await invitee(owner, "Bea", ROLE_ID.admin);
    env.core.sqlite.query("UPDATE users SET status = 1 WHERE id = ?").run(owner.id);
    expect((await put(admin, `/api/admin/users/${bea.id}/role`, { role: 0 })).status).toBe(200);
    for (const body of [{ role: 0 }, { roleId: customRole("Helpers", 0, ["users.manage"]) }]) {
      const res = await put(admin, `/api/admin/users/${admin.id}/role`, body);
      expect(res.body).toMatchObject({ status: 409, code: "last_administrator" });
      expect(res.body.detail).toContain("Ada is the last active administrator");
    }
    // Another Admin-tier role keeps them an administrator: allowed.
    expect((await put(admin, `/api/admin/users/${admin.id}/role`, { roleId: customRole("Admins too", 1, ["users.manage"]) })).status).toBe(
      200,
    );
    expect(auditOf(env, "user.role_changed")).toHaveLength(2);
  });

  test("the last active administrator cannot be suspended", async () => {
    const { owner, admin, member } = await team();
    env.core.sqlite.query("UPDATE users SET status = 1 WHERE id = ?").run(owner.id);
    const o = findUserWithRoleById(env.core, owner.id)!;
    const caller: UserCaller = {
      kind: "user",
      ip: "local",
      user: o.user,
      role: o.role,
      permissions: new Set(o.role.permissions),
      session: null,
      token: null,
    };
    expect(() => setStatus(env.core, caller, admin.id, 1)).toThrow(expect.objectContaining({ problemCode: "last_administrator" }));
    env.core.sqlite.query("UPDATE users SET role_id = ? WHERE id = ?").run(ROLE_ID.admin, member.id);
    expect(setStatus(env.core, caller, admin.id, 1)).toMatchObject({ status: 1 });
  });
});

describe("POST /api/admin/users/{id}/transfer-ownership", () => {
  test("the target becomes Owner and the old owner Administrator, in one change; audited", async () => {
    const { owner, admin, member } = await team();
    const res = await post(owner, `/api/admin/users/${member.id}/transfer-ownership`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: member.id, role: 2, roleName: "Owner", isOwner: true });
    const list = (await call(env, "GET", "/api/admin/users", { as: member })).body;
    expect(list.filter((u: any) => u.role === 2).map((u: any) => u.id)).toEqual([member.id]);
    expect(list.find((u: any) => u.id === owner.id)).toMatchObject({ role: 1, roleName: "Administrator" });
    // The former owner is now an ordinary administrator: the new owner is protected from them.
    expect((await put(owner, `/api/admin/users/${member.id}/status`, { status: 1 })).body.code).toBe("owner_protected");
    expect((await post(admin, `/api/admin/users/${admin.id}/transfer-ownership`)).body).toMatchObject({ status: 403, code: "owner_only" });
    expect(auditOf(env, "user.ownership_transferred")).toMatchObject([
      { actorId: owner.id, targetId: member.id, details: { from: owner.id, to: member.id } },
    ]);
  });

  test("only the owner, with a recent password confirmation; never to a suspended account or to yourself", async () => {
    const { owner, admin, member } = await team();
    expect((await post(admin, `/api/admin/users/${member.id}/transfer-ownership`)).body).toMatchObject({ status: 403, code: "owner_only" });
    const token = await mintToken(env, owner);
    expect((await post({ token }, `/api/admin/users/${member.id}/transfer-ownership`)).body).toMatchObject({
      status: 403,
      code: "reauth_required",
    });
    expect((await post(owner, `/api/admin/users/${owner.id}/transfer-ownership`)).body).toMatchObject({ status: 403, code: "own_account" });
    await put(owner, `/api/admin/users/${member.id}/status`, { status: 1 });
    expect((await post(owner, `/api/admin/users/${member.id}/transfer-ownership`)).body).toMatchObject({
      status: 409,
      code: "account_suspended",
    });
    expect((await post(owner, `/api/admin/users/${newId()}/transfer-ownership`)).status).toBe(404);
    env.clock.advance(5 * 60_000 + 1);
    expect((await post(owner, `/api/admin/users/${admin.id}/transfer-ownership`)).body).toMatchObject({
      status: 403,
      code: "reauth_required",
    });
    expect(env.core.sqlite.query("SELECT count(*) AS n FROM users WHERE role_id = ?").get(ROLE_ID.owner)).toEqual({ n: 1 });
    expect(auditOf(env, "user.ownership_transferred")).toEqual([]);
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
