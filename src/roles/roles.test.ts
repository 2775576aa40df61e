/**
 * Roles: the list with the rights catalogue, custom roles made, renamed and deleted, rights
 * changed (unknown keys, the owner's reserved rights, who may change what, re-authentication),
 * built-in roles reset and reconciled with a later release's defaults, the matrix reviewed;
 * and a change taking effect on the very next request.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { call, makeEnv, mintToken, ownerAndMember, signUp, type TestEnv, type Who } from "../../tests/harness";
import { auditOf } from "../audit/testing";
import { createSession } from "../auth/sessions";
import { ALL_RIGHTS, BUILT_IN_ROLES, OWNER_RESERVED_RIGHTS, RIGHT_AREAS, ROLE_ID } from "../identity/rights";
import { giveRole, makeRole } from "./testing";

let env: TestEnv;
let owner: Who & { id: string };
let member: Who & { id: string };
beforeEach(async () => {
  env = makeEnv();
  ({ owner, member } = await ownerAndMember(env));
});
afterEach(() => env.close());

const R = "/api/admin/roles";
const list = async (as: Who = owner) => (await call(env, "GET", R, { as })).body;
const roleOf = async (id: string) => (await list()).roles.find((r: { id: string }) => r.id === id);
const putRights = (id: string, permissions: string[], as: Who = owner) =>
  call(env, "PUT", `${R}/${id}/permissions`, { as, body: { permissions } });

async function personWith(roleId: string, email: string) {
  const invite = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
  const who = await signUp(env, email, { inviteToken: invite.body.token });
  giveRole(env.core, who.id, roleId);
  return who;
}

describe("the list", () => {
  test("built-in roles first with their tier, rights, defaults and holders; the catalogue with areas; no review yet", async () => {
    const body = await list();
    expect(body.roles.map((r: any) => [r.name, r.tier, r.builtIn, r.accounts])).toEqual([
      ["User", 0, true, 1],
      ["Administrator", 1, true, 0],
      ["Owner", 2, true, 1],
    ]);
    const [user, admin, own] = body.roles;
    expect(user.permissions).toEqual(["tokens.use", "spaces.create"]);
    expect(admin.permissions).toContain("dashboard.view");
    expect(admin.permissions).not.toContain("backups.restore");
    expect(own.permissions).toEqual(ALL_RIGHTS);
    expect(own.reserved).toEqual([...OWNER_RESERVED_RIGHTS]);
    expect(user.reserved).toEqual([]);
    expect(user.defaults).toEqual(["tokens.use", "spaces.create"]);
    expect(body.areas).toEqual([...RIGHT_AREAS]);
    expect(body.rights.map((r: any) => r.key)).toEqual(ALL_RIGHTS);
    for (const r of body.rights) {
      expect(RIGHT_AREAS).toContain(r.area);
      expect(r.description.length).toBeGreaterThan(5);
    }
    expect(body.rights.find((r: any) => r.key === "dashboard.view").area).toBe("dashboard");
    expect([body.reviewedAt, body.reviewedBy]).toEqual([null, null]);
  });

  test("roles.manage: a member 403, nobody signed in 401", async () => {
    const res = await call(env, "GET", R, { as: member });
    expect([res.status, res.body.permission]).toEqual([403, "roles.manage"]);
    expect((await call(env, "GET", R)).status).toBe(401);
  });
});

describe("custom roles", () => {
  test("created empty or as a copy, audited; custom roles follow built-in ones by name", async () => {
    const editors = await call(env, "POST", R, {
      as: owner,
      body: { name: "  Editors ", description: "Write a lot", tier: 0, copyFrom: ROLE_ID.user },
    });
    expect(editors.status).toBe(201);
    expect(editors.body).toMatchObject({
      name: "Editors",
      description: "Write a lot",
      tier: 0,
      builtIn: false,
      permissions: ["tokens.use", "spaces.create"],
      accounts: 0,
      defaults: null,
    });
    const auditors = await call(env, "POST", R, { as: owner, body: { name: "Auditors", tier: 1 } });
    expect(auditors.body.permissions).toEqual([]);
    expect((await list()).roles.map((r: any) => r.name)).toEqual(["User", "Administrator", "Owner", "Auditors", "Editors"]);
    expect(auditOf(env, "role.created").map((e) => [e.actorId, e.details.name, e.details.copyFrom])).toEqual([
      [owner.id, "Editors", ROLE_ID.user],
      [owner.id, "Auditors", null],
    ]);
  });

  test.each([
    ["the Owner tier", { name: "Co-owner", tier: 2 }, "tier", 400],
    ["a tier out of range", { name: "X", tier: 3 }, "tier", 400],
    ["a blank name", { name: "   ", tier: 0 }, "name", 400],
    ["a name too long", { name: "x".repeat(51), tier: 0 }, "name", 400],
    ["a name with a control character", { name: "A\u0007", tier: 0 }, "name", 400],
    ["a name taken, whatever the case", { name: "administrator", tier: 0 }, "name", 409],
    ["a copy of no role", { name: "X", tier: 0, copyFrom: "nope" }, "copyFrom", 400],
  ])("%s is refused naming the field", async (_name, body, field, status) => {
    const res = await call(env, "POST", R, { as: owner, body });
    expect(res.status).toBe(status);
    expect(res.body.field ?? Object.keys(res.body.errors ?? {})[0]).toBe(field);
  });

  test("renamed; a built-in role keeps its name but may change its description", async () => {
    const id = makeRole(env.core, { name: "Old" });
    const res = await call(env, "PUT", `${R}/${id}`, { as: owner, body: { name: "New", description: "Better" } });
    expect(res.body).toMatchObject({ name: "New", description: "Better" });
    expect(auditOf(env, "role.updated")[0].details).toMatchObject({ from: { name: "Old" }, to: { name: "New", description: "Better" } });
    expect((await call(env, "PUT", `${R}/${ROLE_ID.user}`, { as: owner, body: { name: "Members" } })).body.field).toBe("name");
    expect((await call(env, "PUT", `${R}/${ROLE_ID.user}`, { as: owner, body: { description: "Everyone else" } })).body.description).toBe(
      "Everyone else",
    );
    expect((await call(env, "PUT", `${R}/${id}`, { as: owner, body: { name: "USER" } })).status).toBe(409);
    expect((await call(env, "PUT", `${R}/nope`, { as: owner, body: { name: "Z" } })).status).toBe(404);
  });

  test("deleted only when nobody holds it and no pending invite gives it; built-in roles never", async () => {
    const id = makeRole(env.core, { name: "Temp" });
    const a = await personWith(id, "a@example.com");
    await personWith(id, "b@example.com");
    const held = await call(env, "DELETE", `${R}/${id}`, { as: owner });
    expect([held.status, held.body.accounts]).toEqual([409, 2]);
    expect(held.body.detail).toContain("2 accounts");
    env.core.sqlite.query("UPDATE users SET role_id = ? WHERE role_id = ?").run(ROLE_ID.user, id);
    // The invites that made a and b are used up and named the User role; this one names Temp.
    const invite = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
    env.core.sqlite.query("UPDATE invites SET role_id = ? WHERE id = ?").run(id, invite.body.id);
    const pending = await call(env, "DELETE", `${R}/${id}`, { as: owner });
    expect([pending.status, pending.body.invites]).toEqual([409, 1]);
    env.core.sqlite
      .query("UPDATE invites SET used_at = ?, used_by_id = ? WHERE id = ?")
      .run(new Date().toISOString(), a.id, invite.body.id);
    expect((await call(env, "DELETE", `${R}/${id}`, { as: owner })).status).toBe(204);
    expect(await roleOf(id)).toBeUndefined();
    expect(auditOf(env, "role.deleted").map((e) => e.details.name)).toEqual(["Temp"]);
    const builtIn = await call(env, "DELETE", `${R}/${ROLE_ID.user}`, { as: owner });
    expect(builtIn.status).toBe(409);
  });
});

describe("rights", () => {
  test("the whole list is set, audited with what was added and removed", async () => {
    const id = makeRole(env.core, { permissions: ["tokens.use"] });
    const res = await putRights(id, ["audit.view", "spaces.create", "audit.view"]);
    expect(res.status).toBe(200);
    expect(res.body.permissions).toEqual(["spaces.create", "audit.view"]);
    expect(auditOf(env, "role.permissions_changed").map((e) => [e.actorId, e.details.added, e.details.removed])).toEqual([
      [owner.id, ["spaces.create", "audit.view"], ["tokens.use"]],
    ]);
  });

  test("unknown keys are a 400 naming them", async () => {
    const res = await putRights(ROLE_ID.user, ["tokens.use", "pages.fly", "root"]);
    expect([res.status, res.body.field]).toEqual([400, "permissions"]);
    expect(res.body.detail).toContain("pages.fly, root");
  });

  test("the Owner role's reserved rights can never be removed; its other rights can", async () => {
    for (const reserved of OWNER_RESERVED_RIGHTS) {
      const res = await putRights(
        ROLE_ID.owner,
        ALL_RIGHTS.filter((r) => r !== reserved),
      );
      expect([res.status, res.body.field]).toEqual([400, "permissions"]);
      expect(res.body.detail).toContain(reserved);
    }
    const res = await putRights(
      ROLE_ID.owner,
      ALL_RIGHTS.filter((r) => r !== "branding.manage"),
    );
    expect(res.body.permissions).not.toContain("branding.manage");
  });

  test("only the owner changes the Owner role; nobody changes a role above their tier or grants what they lack", async () => {
    const admin = await personWith(ROLE_ID.admin, "admin@example.com");
    expect((await putRights(ROLE_ID.owner, ALL_RIGHTS, admin)).status).toBe(403);
    expect((await call(env, "POST", `${R}/${ROLE_ID.owner}/reset`, { as: admin })).status).toBe(403);
    const grant = await putRights(ROLE_ID.admin, ALL_RIGHTS, admin);
    expect([grant.status, grant.body.code, grant.body.rights]).toEqual([403, "forbidden", ["backups.restore"]]);
    const copy = await call(env, "POST", R, { as: admin, body: { name: "Restorers", tier: 1, copyFrom: ROLE_ID.owner } });
    expect(copy.status).toBe(403);
    // A Member-tier role holding roles.manage manages Member-tier roles only.
    const keeper = await personWith(
      makeRole(env.core, { name: "Keepers", permissions: ["roles.manage", "tokens.use"] }),
      "keeper@example.com",
    );
    expect((await putRights(ROLE_ID.admin, [], keeper)).status).toBe(403);
    expect((await call(env, "POST", R, { as: keeper, body: { name: "Admins 2", tier: 1 } })).status).toBe(403);
    expect((await putRights(ROLE_ID.user, ["tokens.use"], keeper)).status).toBe(200);
    // Removing a right one does not hold is fine.
    expect((await putRights(ROLE_ID.user, [], keeper)).status).toBe(200);
  });

  test("changing rights needs a recent re-authentication: a stale session or a token gets 403 reauth_required", async () => {
    const stale = { cookie: createSession(env.core, owner.id, { ip: "127.0.0.1", userAgent: null, reauthAt: null }).value };
    const token = { token: await mintToken(env, owner) };
    for (const who of [stale, token]) {
      expect((await putRights(ROLE_ID.user, ["tokens.use"], who)).body.code).toBe("reauth_required");
      expect((await call(env, "POST", `${R}/${ROLE_ID.user}/reset`, { as: who })).body.code).toBe("reauth_required");
    }
    // Names, new roles and reviews do not change what anyone holds.
    expect((await call(env, "POST", R, { as: stale, body: { name: "Fresh", tier: 0 } })).status).toBe(201);
    expect((await call(env, "POST", `${R}/review`, { as: token })).status).toBe(200);
  });

  test("a change takes effect on the holder's next request, token and session alike", async () => {
    const token = { token: await mintToken(env, member) };
    expect((await call(env, "GET", "/api/auth/me", { as: token })).status).toBe(200);
    await putRights(ROLE_ID.user, ["spaces.create"]);
    expect((await call(env, "GET", "/api/auth/me", { as: token })).status).toBe(401);
    expect((await call(env, "POST", "/api/spaces", { as: member, body: { key: "ONE", name: "One" } })).status).toBe(201);
    await putRights(ROLE_ID.user, ["tokens.use"]);
    expect((await call(env, "GET", "/api/auth/me", { as: token })).status).toBe(200);
    const refused = await call(env, "POST", "/api/spaces", { as: member, body: { key: "TWO", name: "Two" } });
    expect([refused.status, refused.body.permission]).toEqual([403, "spaces.create"]);
  });

  test("reset puts a built-in role back to its defaults; a custom role has none (409)", async () => {
    await putRights(ROLE_ID.admin, ["audit.view"]);
    const res = await call(env, "POST", `${R}/${ROLE_ID.admin}/reset`, { as: owner });
    expect(res.status).toBe(200);
    expect(res.body.permissions).toEqual(res.body.defaults);
    expect(res.body.permissions).toContain("dashboard.view");
    expect(auditOf(env, "role.reset")).toHaveLength(1);
    expect((await call(env, "POST", `${R}/${makeRole(env.core)}/reset`, { as: owner })).status).toBe(409);
  });
});

test("review records who and when, shows in the list and in the audit log", async () => {
  const res = await call(env, "POST", `${R}/review`, { as: owner });
  expect(res.body).toEqual({ reviewedAt: new Date(env.clock.now()).toISOString(), reviewedBy: { id: owner.id, displayName: "owner" } });
  const body = await list();
  expect([body.reviewedAt, body.reviewedBy]).toEqual([res.body.reviewedAt, res.body.reviewedBy]);
  expect(auditOf(env, "roles.reviewed").map((e) => e.actorId)).toEqual([owner.id]);
  expect((await call(env, "POST", `${R}/review`, { as: member })).status).toBe(403);
});

describe("a later release's default rights reach an existing instance's built-in roles", () => {
  /** The same data directory opened again, as a server start after an upgrade would. */
  const reopen = () => {
    const dir = env.dir;
    env.core.close();
    const next = makeEnv({ dir });
    env = { ...next, close: () => (next.close(), rmSync(dir, { recursive: true, force: true })) };
  };
  const adminRights = () =>
    JSON.parse(
      env.core.sqlite.query<{ permissions: string }, [string]>("SELECT permissions FROM roles WHERE id = ?").get(ROLE_ID.admin)!
        .permissions,
    ) as string[];

  test("an Administrator row from before (no dashboard.view, no record of offers) gets it at start-up, audited", async () => {
    const older = BUILT_IN_ROLES[1].permissions.filter((r) => r !== "dashboard.view");
    env.core.sqlite.query("UPDATE roles SET permissions = ?, offered = NULL WHERE id = ?").run(JSON.stringify(older), ROLE_ID.admin);
    reopen();
    expect(adminRights()).toContain("dashboard.view");
    expect(auditOf(env, "role.permissions_changed").map((e) => [e.actorId, e.details.name, e.details.added])).toEqual([
      [null, "Administrator", ["dashboard.view"]],
    ]);
    // Reopened again: nothing new, nothing written.
    reopen();
    expect(auditOf(env, "role.permissions_changed")).toHaveLength(1);
  });

  test("a right the administrator removed stays removed, and so does an older one removed before offers were recorded", async () => {
    await putRights(
      ROLE_ID.admin,
      BUILT_IN_ROLES[1].permissions.filter((r) => r !== "dashboard.view" && r !== "audit.view"),
    );
    reopen();
    expect(adminRights()).not.toContain("dashboard.view");
    env.core.sqlite.query("UPDATE roles SET offered = NULL WHERE id = ?").run(ROLE_ID.admin);
    reopen();
    expect(adminRights()).toContain("dashboard.view");
    expect(adminRights()).not.toContain("audit.view");
  });
});
