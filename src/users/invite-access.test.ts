import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, PASSWORD, signUp, type TestEnv, type Who } from "../../tests/harness";
import { ROLE_ID } from "../identity/rights";
import { giveRole, makeRole } from "../roles/testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const space = async (who: Who, key: string) => {
  const res = await call(env, "POST", "/api/spaces", { as: who, body: { key, name: `Space ${key}` } });
  if (res.status !== 201) throw new Error(res.text);
  return res.body as { id: string; key: string };
};

/** A space only its creator may see: the Everyone grant a new space gets is taken away. */
const privateSpace = async (who: Who, key: string) => {
  const made = await space(who, key);
  const grants = await call(env, "GET", `/api/spaces/${key}/permissions`, { as: who });
  const everyone = grants.body.find((g: { principalType: number }) => g.principalType === 1);
  expect((await call(env, "DELETE", `/api/spaces/${key}/permissions/${everyone.id}`, { as: who })).status).toBe(204);
  return made;
};

const register = (email: string, inviteToken: string) =>
  call(env, "POST", "/api/auth/register", { body: { email, displayName: "Nia", password: PASSWORD, inviteToken } });

describe("an invite gives a role and spaces", () => {
  test("accepting applies the role and the space grants with the account, and the audit names the inviter", async () => {
    const owner = await signUp(env, "owner@example.com");
    const eng = await privateSpace(owner, "ENG");
    const ops = await privateSpace(owner, "OPS");
    await privateSpace(owner, "HR");
    const made = await call(env, "POST", "/api/admin/invites", {
      as: owner,
      body: {
        email: "nia@example.com",
        roleId: ROLE_ID.admin,
        spaces: [
          { spaceId: eng.id, operation: 1 },
          { spaceId: ops.id, operation: 0 },
        ],
      },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ roleId: ROLE_ID.admin, roleName: "Administrator" });
    expect(made.body.spaces.map((s: { spaceKey: string; operation: number }) => [s.spaceKey, s.operation])).toEqual([
      ["ENG", 1],
      ["OPS", 0],
    ]);
    const listed = await call(env, "GET", "/api/admin/invites", { as: owner });
    expect(listed.body[0]).toMatchObject({ roleName: "Administrator", spaces: [{ spaceKey: "ENG" }, { spaceKey: "OPS" }] });

    const joined = await register("nia@example.com", made.body.token);
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ roleName: "Administrator", role: 1 });
    const nia = { cookie: /cairn_session=([^;]*)/.exec(joined.headers.get("set-cookie")!)![1] };
    const spaces = await call(env, "GET", "/api/spaces", { as: nia });
    expect(spaces.body.map((s: { key: string; canEdit: boolean }) => [s.key, s.canEdit])).toEqual([
      ["ENG", true],
      ["OPS", false],
    ]);
    const audit = env.core.sqlite
      .query("SELECT type, actor_id AS actor FROM events WHERE type IN ('user.registered', 'space.permission_granted') ORDER BY seq")
      .all() as { type: string; actor: string }[];
    expect(audit.slice(-3)).toEqual([
      { type: "user.registered", actor: joined.body.id },
      { type: "space.permission_granted", actor: owner.id },
      { type: "space.permission_granted", actor: owner.id },
    ]);
  });

  test("a registration that fails gives nothing: the invite stays usable and no grant is left behind", async () => {
    const owner = await signUp(env, "owner@example.com");
    const eng = await privateSpace(owner, "ENG");
    const made = await call(env, "POST", "/api/admin/invites", { as: owner, body: { spaces: [{ spaceId: eng.id, operation: 2 }] } });
    const taken = await register("owner@example.com", made.body.token);
    expect(taken.status).toBe(409);
    expect(env.core.sqlite.query("SELECT count(*) AS n FROM space_grants WHERE space_id = ?").get(eng.id)).toEqual({ n: 1 });
    expect((await register("new@example.com", made.body.token)).status).toBe(201);
    expect(env.core.sqlite.query("SELECT count(*) AS n FROM space_grants WHERE space_id = ? AND operation = 2").get(eng.id)).toEqual({
      n: 2,
    });
  });

  test("an inviter gives only roles and spaces they may: every id is checked, and out of reach reads as unknown", async () => {
    const { owner, member } = await ownerAndMember(env);
    // A member-tier role that may invite people, and administers one space of its own.
    giveRole(env.core, member.id, makeRole(env.core, { name: "Recruiter", permissions: ["users.invite", "spaces.create"] }));
    const custom = makeRole(env.core, { name: "Auditor", permissions: ["audit.view"] });
    const hidden = await privateSpace(owner, "HR");
    const ownerOnly = await space(owner, "ALL");
    const theirs = await space(member, "TEAM");

    const options = await call(env, "GET", "/api/admin/invites/options", { as: member });
    expect(options.status).toBe(200);
    expect(options.body.roles.map((r: { name: string }) => r.name)).toEqual(["User", "Recruiter"]);
    expect(options.body.spaces.map((s: { key: string }) => s.key)).toEqual(["TEAM"]);
    // The owner may give any role but Owner, and the spaces the owner administers.
    const ownerOptions = await call(env, "GET", "/api/admin/invites/options", { as: owner });
    expect(ownerOptions.body.roles.map((r: { name: string }) => r.name)).toEqual(["User", "Auditor", "Recruiter", "Administrator"]);
    expect(ownerOptions.body.spaces.map((s: { key: string }) => s.key)).toEqual(["ALL", "HR"]);

    const invite = (body: Record<string, unknown>) => call(env, "POST", "/api/admin/invites", { as: member, body });
    for (const roleId of [ROLE_ID.admin, ROLE_ID.owner, custom, "00000000-0000-7000-8000-0000000000ff"]) {
      const refused = await invite({ roleId });
      expect(refused.status).toBe(400);
      expect(refused.body.field).toBe("roleId");
    }
    // A space they cannot see, one they can see but do not administer, and none at all: one answer.
    const answers = await Promise.all(
      [hidden.id, ownerOnly.id, "00000000-0000-7000-8000-0000000000ff"].map((spaceId) => invite({ spaces: [{ spaceId, operation: 0 }] })),
    );
    for (const a of answers) expect(a.body).toMatchObject({ status: 400, field: "spaces.0.spaceId", detail: answers[0].body.detail });
    expect(answers[0].body.detail).not.toContain("HR");
    const twice = await invite({
      spaces: [
        { spaceId: theirs.id, operation: 1 },
        { spaceId: theirs.id, operation: 0 },
      ],
    });
    expect(twice.body.field).toBe("spaces.1.spaceId");
    const badOperation = await invite({ spaces: [{ spaceId: theirs.id, operation: 3 }] });
    expect(badOperation.status).toBe(400);
    expect(env.core.sqlite.query("SELECT count(*) AS n FROM invites").get()).toEqual({ n: 1 });

    const ok = await invite({ spaces: [{ spaceId: theirs.id, operation: 2 }] });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ roleName: "User", spaces: [{ spaceKey: "TEAM", operation: 2 }] });
  });
});

describe("GET /api/auth/invite: what the register form shows", () => {
  test("a valid link shows its address, role, spaces and inviter; any other token is one 404", async () => {
    const owner = await signUp(env, "owner@example.com", { displayName: "Olive" });
    const eng = await space(owner, "ENG");
    const made = await call(env, "POST", "/api/admin/invites", {
      as: owner,
      body: { email: "Nia@Example.com", spaces: [{ spaceId: eng.id, operation: 1 }] },
    });
    const shown = await call(env, "GET", `/api/auth/invite?token=${made.body.token}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({
      email: "nia@example.com",
      roleName: "User",
      invitedBy: "Olive",
      spaces: [{ name: "Space ENG", operation: 1 }],
      expiresAt: made.body.expiresAt,
    });

    const unknown = await call(env, "GET", "/api/auth/invite?token=not-a-token");
    expect(unknown.status).toBe(404);
    const open = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
    expect((await call(env, "GET", `/api/auth/invite?token=${open.body.token}`)).body.email).toBeNull();
    // Used, then expired: the same 404 as a token that never was.
    await register("nia@example.com", made.body.token);
    const used = await call(env, "GET", `/api/auth/invite?token=${made.body.token}`);
    expect(used.status).toBe(404);
    expect(used.body).toEqual(unknown.body);
    env.clock.advance(8 * 86_400_000);
    expect((await call(env, "GET", `/api/auth/invite?token=${open.body.token}`)).body).toEqual(unknown.body);
    expect((await call(env, "GET", "/api/auth/invite")).status).toBe(400);
  });
});
