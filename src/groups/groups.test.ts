import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, type TestEnv } from "../../tests/harness";
import { GROUP_ID } from "../identity/builtin-groups";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

describe("built-in groups", () => {
  test("exist with fixed ids and follow each account's tier", async () => {
    const { owner, member } = await ownerAndMember(env);
    const list = await call(env, "GET", "/api/groups", { as: member });
    expect(list.status).toBe(200);
    const byId = Object.fromEntries(list.body.map((g: any) => [g.id, g]));
    expect(byId[GROUP_ID.everyone]).toMatchObject({ name: "Everyone", builtIn: true, memberCount: 2 });
    expect(byId[GROUP_ID.administrators]).toMatchObject({ name: "Administrators", memberCount: 1 });
    expect(byId[GROUP_ID.owners]).toMatchObject({ name: "Owners", memberCount: 1 });
    const owners = await call(env, "GET", `/api/groups/${GROUP_ID.owners}/members`, { as: member });
    expect(owners.body.map((u: any) => u.id)).toEqual([owner.id]);
    env.core.sqlite.query("UPDATE users SET role_id = '00000000-0000-7000-8000-000000000002' WHERE id = ?").run(member.id);
    const admins = await call(env, "GET", `/api/groups/${GROUP_ID.administrators}/members`, { as: member });
    expect(admins.body.map((u: any) => u.id).sort()).toEqual([owner.id, member.id].sort());
  });

  test("cannot be renamed, deleted or have members edited", async () => {
    const { owner, member } = await ownerAndMember(env);
    for (const [method, path, body] of [
      ["PUT", `/api/groups/${GROUP_ID.everyone}`, { name: "All" }],
      ["DELETE", `/api/groups/${GROUP_ID.everyone}`, undefined],
      ["POST", `/api/groups/${GROUP_ID.owners}/members`, { userId: member.id }],
      ["DELETE", `/api/groups/${GROUP_ID.owners}/members/${owner.id}`, undefined],
    ] as const) {
      const res = await call(env, method, path, { as: owner, body });
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
  });
});

describe("custom groups", () => {
  test("create, rename, add and remove members, delete", async () => {
    const { owner, member } = await ownerAndMember(env);
    const created = await call(env, "POST", "/api/groups", { as: owner, body: { name: " Design  team ", description: "Makes it pretty" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Design team", description: "Makes it pretty", builtIn: false, memberCount: 0 });
    const id = created.body.id;
    expect((await call(env, "POST", "/api/groups", { as: owner, body: { name: "design TEAM" } })).status).toBe(409);

    expect((await call(env, "POST", `/api/groups/${id}/members`, { as: owner, body: { userId: member.id } })).status).toBe(204);
    expect((await call(env, "POST", `/api/groups/${id}/members`, { as: owner, body: { userId: member.id } })).status).toBe(204);
    const members = await call(env, "GET", `/api/groups/${id}/members`, { as: member });
    expect(members.body.map((u: any) => u.id)).toEqual([member.id]);

    const renamed = await call(env, "PUT", `/api/groups/${id}`, { as: owner, body: { name: "Design" } });
    expect(renamed.body).toMatchObject({ name: "Design", description: "Makes it pretty", memberCount: 1 });

    expect((await call(env, "DELETE", `/api/groups/${id}/members/${member.id}`, { as: owner })).status).toBe(204);
    expect((await call(env, "DELETE", `/api/groups/${id}/members/${member.id}`, { as: owner })).status).toBe(404);
    expect((await call(env, "DELETE", `/api/groups/${id}`, { as: owner })).status).toBe(204);
    expect((await call(env, "GET", `/api/groups/${id}/members`, { as: owner })).status).toBe(404);
  });

  test("managing groups needs groups.manage; reading needs an account", async () => {
    const { owner, member } = await ownerAndMember(env);
    const id = (await call(env, "POST", "/api/groups", { as: owner, body: { name: "Ops" } })).body.id;
    expect((await call(env, "GET", "/api/groups")).status).toBe(401);
    for (const [method, path, body] of [
      ["POST", "/api/groups", { name: "Mine" }],
      ["PUT", `/api/groups/${id}`, { name: "Mine" }],
      ["DELETE", `/api/groups/${id}`, undefined],
      ["POST", `/api/groups/${id}/members`, { userId: member.id }],
      ["DELETE", `/api/groups/${id}/members/${owner.id}`, undefined],
    ] as const) {
      const res = await call(env, method, path, { as: member, body });
      expect([method, path, res.status, res.body.permission]).toEqual([method, path, 403, "groups.manage"]);
    }
    const ro = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect((await call(env, "GET", "/api/groups", { as: { token: ro } })).status).toBe(200);
    expect((await call(env, "POST", "/api/groups", { as: { token: ro }, body: { name: "X" } })).body.code).toBe("read_only_token");
  });

  test.each([
    ["POST", { name: "" }, "name"],
    ["POST", { name: "x".repeat(101) }, "name"],
    ["POST", { description: "no name" }, "name"],
    ["POST", { name: "ok", description: "x".repeat(1001) }, "description"],
  ])("%s rejects %j naming %s", async (method, body, field) => {
    const { owner } = await ownerAndMember(env);
    const res = await call(env, method, "/api/groups", { as: owner, body });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  // The name is one line, the description several (platform/text.ts); both as created and as changed.
  test.each([
    ["name", "a tab", "Ops\tteam"],
    ["name", "a line feed", "Ops\n"],
    ["name", "ESC", "\u001B[1mOps"],
    ["name", "a C1 control", "Ops\u0080"],
    ["name", "a right-to-left embedding", "\u202BOps"],
    ["name", "a lone surrogate", "Ops \uDC00"],
    ["description", "NUL", "a\u0000b"],
    ["description", "a bell", "a\u0007b"],
    ["description", "a pop-directional isolate", "a\u2069b"],
  ])("refuses a %s with %s, on create and on change (400 on the field)", async (field, _why, text) => {
    const { owner } = await ownerAndMember(env);
    const created = await call(env, "POST", "/api/groups", { as: owner, body: { name: "New", [field]: text } });
    expect(created).toMatchObject({ status: 400, body: { field } });
    const ops = (await call(env, "POST", "/api/groups", { as: owner, body: { name: "Ops" } })).body;
    const changed = await call(env, "PUT", `/api/groups/${ops.id}`, { as: owner, body: { [field]: text } });
    expect(changed).toMatchObject({ status: 400, body: { field } });
    expect(changed.body.detail).toContain("must not contain control characters");
    const custom = (await call(env, "GET", "/api/groups", { as: owner })).body.filter((g: { builtIn: boolean }) => !g.builtIn);
    expect(custom).toMatchObject([{ name: "Ops", description: "" }]);
  });

  test("a description keeps its lines and tabs (CR LF becomes LF)", async () => {
    const { owner } = await ownerAndMember(env);
    expect(
      (await call(env, "POST", "/api/groups", { as: owner, body: { name: "Ops", description: "One\r\n\tTwo" } })).body.description,
    ).toBe("One\n\tTwo");
  });

  test("unknown group and unknown user", async () => {
    const { owner } = await ownerAndMember(env);
    const id = (await call(env, "POST", "/api/groups", { as: owner, body: { name: "Ops" } })).body.id;
    expect((await call(env, "GET", "/api/groups/01234567-0000-7000-8000-000000000000/members", { as: owner })).status).toBe(404);
    const res = await call(env, "POST", `/api/groups/${id}/members`, {
      as: owner,
      body: { userId: "01234567-0000-7000-8000-000000000000" },
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("userId");
  });
});
