/**
 * /api/admin/users: suspension and reactivation, and the transfer of ownership (one owner), with
 * their invariants. The list and role changes are in admin-users.test.ts.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, PASSWORD, type TestEnv } from "../../tests/harness";
import { auditOf } from "../audit/testing";
import { createSession } from "../auth/sessions";
import { ROLE_ID } from "../identity/rights";
import type { UserCaller } from "../identity/caller";
import { newId } from "../platform/crypto";
import { setStatus } from "../auth/admin-sign-in";
import { findUserWithRoleById } from "./service";
import { adminUsersKit } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const { invitee, team, customRole, put, post } = adminUsersKit(() => env);

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
