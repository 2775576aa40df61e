import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, mintToken, ownerAndMember, signUp, type TestEnv, makeEnv } from "../../tests/harness";
import { invited } from "../comments/testing";
import { GROUP_ID } from "../identity/builtin-groups";
import { eventsOf, newPage, newSpace } from "../pages/testing";

let env: TestEnv;
beforeEach(() => {
  env = makeEnv();
});
afterEach(() => env.close());

const grants = async (who: { cookie: string }, key = "DOCS") =>
  (await call(env, "GET", `/api/spaces/${key}/permissions`, { as: who })).body as Array<Record<string, any>>;

describe("a new space", () => {
  test("gives its creator Admin and the built-in Everyone group Edit, each naming its principal", async () => {
    const { member } = await ownerAndMember(env);
    await newSpace(env, member, "DOCS");
    const list = await grants(member);
    expect(
      list.map(({ principalType, principalId, principalName, operation }) => ({ principalType, principalId, principalName, operation })),
    ).toEqual([
      { principalType: 0, principalId: member.id, principalName: "member", operation: 2 },
      { principalType: 1, principalId: GROUP_ID.everyone, principalName: "Everyone", operation: 1 },
    ]);
    expect(list[0]).toMatchObject({ id: expect.any(String), createdAt: expect.any(String) });
  });
});

describe("GET/POST/DELETE /api/spaces/{key}/permissions", () => {
  test("removing the Everyone grant makes the space private: others get 404 as if it did not exist", async () => {
    const { owner, member } = await ownerAndMember(env);
    const space = await newSpace(env, owner, "DOCS");
    const page = await newPage(env, owner, space.id, "Plan");
    expect((await call(env, "GET", "/api/spaces/DOCS", { as: member })).status).toBe(200);
    const everyone = (await grants(owner)).find((g) => g.principalId === GROUP_ID.everyone)!;
    expect((await call(env, "DELETE", `/api/spaces/DOCS/permissions/${everyone.id}`, { as: owner })).status).toBe(204);
    const hidden = await call(env, "GET", "/api/spaces/DOCS", { as: member });
    const missing = await call(env, "GET", "/api/spaces/NOPE", { as: member });
    expect(hidden.status).toBe(404);
    expect(hidden.text).toBe(missing.text);
    expect((await call(env, "GET", `/api/pages/${page.id}`, { as: member })).status).toBe(404);
    expect((await call(env, "GET", "/api/spaces", { as: member })).body).toEqual([]);
    expect(eventsOf(env, "space.permission_revoked")[0].data).toMatchObject({ principalId: GROUP_ID.everyone, operation: 1 });
  });

  test("a grant to a person or a custom group gives exactly its operation; a higher one implies the lower", async () => {
    const { owner, member } = await ownerAndMember(env);
    const third = await invited(env, owner, "third@example.com");
    const space = await newSpace(env, owner, "DOCS");
    const everyone = (await grants(owner)).find((g) => g.principalId === GROUP_ID.everyone)!;
    await call(env, "DELETE", `/api/spaces/DOCS/permissions/${everyone.id}`, { as: owner });

    const viewer = await call(env, "POST", "/api/spaces/DOCS/permissions", {
      as: owner,
      body: { principalType: 0, principalId: member.id, operation: 0 },
    });
    expect(viewer).toMatchObject({
      status: 201,
      body: { principalType: 0, principalId: member.id, principalName: "member", operation: 0 },
    });
    expect((await call(env, "GET", "/api/spaces/DOCS", { as: member })).status).toBe(200);
    expect((await call(env, "POST", "/api/pages", { as: member, body: { spaceId: space.id, title: "No" } })).status).toBe(403);

    const group = (await call(env, "POST", "/api/groups", { as: owner, body: { name: "Writers" } })).body;
    await call(env, "POST", `/api/groups/${group.id}/members`, { as: owner, body: { userId: third.id } });
    const editors = await call(env, "POST", "/api/spaces/DOCS/permissions", {
      as: owner,
      body: { principalType: 1, principalId: group.id, operation: 1 },
    });
    expect(editors).toMatchObject({ status: 201, body: { principalName: "Writers", operation: 1 } });
    expect((await call(env, "POST", "/api/pages", { as: third, body: { spaceId: space.id, title: "Yes" } })).status).toBe(201);
    expect((await call(env, "GET", "/api/spaces/DOCS/permissions", { as: third })).status).toBe(403);

    // The same principal again changes its one grant (200), it never adds a second.
    const raised = await call(env, "POST", "/api/spaces/DOCS/permissions", {
      as: owner,
      body: { principalType: 0, principalId: member.id, operation: 2 },
    });
    expect(raised).toMatchObject({ status: 200, body: { id: viewer.body.id, operation: 2 } });
    expect((await call(env, "GET", "/api/spaces/DOCS/permissions", { as: member })).status).toBe(200);
    expect((await grants(owner)).filter((g) => g.principalId === member.id)).toHaveLength(1);
  });

  test("only space admins manage grants: an editor 403, someone who cannot see the space 404, anonymous 404", async () => {
    const { owner, member } = await ownerAndMember(env);
    await newSpace(env, owner, "DOCS");
    const body = { principalType: 0, principalId: member.id, operation: 2 };
    expect((await call(env, "GET", "/api/spaces/DOCS/permissions", { as: member })).status).toBe(403);
    expect((await call(env, "POST", "/api/spaces/DOCS/permissions", { as: member, body })).status).toBe(403);
    expect((await call(env, "GET", "/api/spaces/DOCS/permissions")).status).toBe(404);
    expect((await call(env, "GET", "/api/spaces/NOPE/permissions", { as: owner })).status).toBe(404);
    // The instance owner is no space admin by their role (only through recover-access).
    await newSpace(env, member, "MINE");
    expect((await call(env, "GET", "/api/spaces/MINE/permissions", { as: owner })).status).toBe(403);
  });

  test.each([
    ["principalType", { principalType: 2, principalId: "x", operation: 0 }],
    ["operation", { principalType: 0, principalId: "x", operation: 3 }],
    ["principalId", { principalType: 0, principalId: "00000000-0000-7000-8000-00000000dead", operation: 0 }],
    ["principalId", { principalType: 1, principalId: "00000000-0000-7000-8000-00000000dead", operation: 0 }],
    ["principalId", { principalType: 0, principalId: "", operation: 0 }],
  ])("refuses a bad %s (400 on the field, nothing written)", async (field, body) => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    const res = await call(env, "POST", "/api/spaces/DOCS/permissions", { as: owner, body });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(await grants(owner)).toHaveLength(2);
  });

  test("the last Admin grant can be neither removed nor lowered (400); with a second admin it can", async () => {
    const { owner, member } = await ownerAndMember(env);
    await newSpace(env, owner, "DOCS");
    const mine = (await grants(owner)).find((g) => g.operation === 2)!;
    const removed = await call(env, "DELETE", `/api/spaces/DOCS/permissions/${mine.id}`, { as: owner });
    expect(removed).toMatchObject({ status: 400, body: { field: "id" } });
    const lowered = await call(env, "POST", "/api/spaces/DOCS/permissions", {
      as: owner,
      body: { principalType: 0, principalId: owner.id, operation: 1 },
    });
    expect(lowered).toMatchObject({ status: 400, body: { field: "operation" } });
    await call(env, "POST", "/api/spaces/DOCS/permissions", {
      as: owner,
      body: { principalType: 0, principalId: member.id, operation: 2 },
    });
    expect((await call(env, "DELETE", `/api/spaces/DOCS/permissions/${mine.id}`, { as: owner })).status).toBe(204);
    expect((await call(env, "GET", "/api/spaces/DOCS/permissions", { as: owner })).status).toBe(403);
    expect((await call(env, "GET", "/api/spaces/DOCS/permissions", { as: member })).status).toBe(200);
  });

  test("a grant of another space is 404 on this one", async () => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    await newSpace(env, owner, "MORE");
    const other = (await grants(owner, "MORE"))[1];
    expect((await call(env, "DELETE", `/api/spaces/DOCS/permissions/${other.id}`, { as: owner })).status).toBe(404);
    expect(await grants(owner, "MORE")).toHaveLength(2);
  });
});

describe("DELETE /api/spaces/{key}/permissions", () => {
  test("removes every grant and keeps the caller as an explicit admin; records the reset", async () => {
    const { owner, member } = await ownerAndMember(env);
    const group = (await call(env, "POST", "/api/groups", { as: owner, body: { name: "Admins of docs" } })).body;
    await call(env, "POST", `/api/groups/${group.id}/members`, { as: owner, body: { userId: member.id } });
    await newSpace(env, owner, "DOCS");
    await call(env, "POST", "/api/spaces/DOCS/permissions", { as: owner, body: { principalType: 1, principalId: group.id, operation: 2 } });
    // The member administers through the group only; after the reset they hold their own grant.
    expect((await call(env, "DELETE", "/api/spaces/DOCS/permissions", { as: member })).status).toBe(204);
    const left = await grants(member);
    expect(left.map((g) => [g.principalType, g.principalId, g.operation])).toEqual([[0, member.id, 2]]);
    expect((await call(env, "GET", "/api/spaces/DOCS", { as: owner })).status).toBe(404);
    expect(eventsOf(env, "space.permissions_reset")[0].data.removed).toHaveLength(3);
  });

  test("needs a recent re-authentication: a token gets 403 reauth_required and nothing changes", async () => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    const token = await mintToken(env, owner);
    expect((await call(env, "DELETE", "/api/spaces/DOCS/permissions", { as: { token } })).body.code).toBe("reauth_required");
    env.clock.advance(6 * 60 * 1000);
    expect((await call(env, "DELETE", "/api/spaces/DOCS/permissions", { as: owner })).body.code).toBe("reauth_required");
    expect(await grants(owner)).toHaveLength(2);
  });
});

describe("a deleted group", () => {
  test("takes its grants with it", async () => {
    const { owner, member } = await ownerAndMember(env);
    await newSpace(env, owner, "DOCS");
    const group = (await call(env, "POST", "/api/groups", { as: owner, body: { name: "Team" } })).body;
    await call(env, "POST", `/api/groups/${group.id}/members`, { as: owner, body: { userId: member.id } });
    await call(env, "POST", "/api/spaces/DOCS/permissions", { as: owner, body: { principalType: 1, principalId: group.id, operation: 2 } });
    expect(await grants(owner)).toHaveLength(3);
    expect((await call(env, "DELETE", `/api/groups/${group.id}`, { as: owner })).status).toBe(204);
    expect((await grants(owner)).map((g) => g.principalId)).not.toContain(group.id);
    expect((await call(env, "GET", "/api/spaces/DOCS/permissions", { as: member })).status).toBe(403);
  });
});
