import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { invited } from "../comments/testing";
import { GROUP_ID } from "../identity/builtin-groups";
import { eventsOf, newPage, newSpace, titles, treeOf } from "../pages/testing";

let env: TestEnv;
beforeEach(() => {
  env = makeEnv();
});
afterEach(() => env.close());

const restrict = (who: Who, pageId: string, operation: number, principalId: string, principalType = 0) =>
  call(env, "POST", `/api/pages/${pageId}/restrictions`, { as: who, body: { principalType, principalId, operation } });

/** Owner administers DOCS; member and third are editors through Everyone. A > A1 > A2, B. */
async function setup() {
  const { owner, member } = await ownerAndMember(env);
  const third = await invited(env, owner, "third@example.com");
  const space = await newSpace(env, owner, "DOCS");
  const a = await newPage(env, member, space.id, "A");
  const a1 = await newPage(env, member, space.id, "A1", { parentPageId: a.id });
  const a2 = await newPage(env, member, space.id, "A2", { parentPageId: a1.id });
  const b = await newPage(env, member, space.id, "B");
  return { owner, member, third, space, a, a1, a2, b };
}

describe("View restrictions", () => {
  test("hide the page and its whole subtree from everyone not named; space admins still see it", async () => {
    const { owner, member, third, space, a, a1, a2 } = await setup();
    expect((await restrict(member, a1.id, 0, member.id)).status).toBe(201);
    for (const id of [a1.id, a2.id]) {
      const hidden = await call(env, "GET", `/api/pages/${id}`, { as: third });
      const missing = await call(env, "GET", "/api/pages/00000000-0000-7000-8000-000000000000", { as: third });
      expect(hidden.status).toBe(404);
      expect(hidden.text).toBe(missing.text);
      expect((await call(env, "GET", `/api/pages/${id}`, { as: member })).status).toBe(200);
      expect((await call(env, "GET", `/api/pages/${id}`, { as: owner })).status).toBe(200);
    }
    expect(titles(await treeOf(env, third, space.id))).toEqual(["A", "B"]);
    expect(titles(await treeOf(env, member, space.id))).toEqual(["A", ["A1", ["A2"]], "B"]);
    expect(titles(await treeOf(env, owner, space.id))).toEqual(["A", ["A1", ["A2"]], "B"]);
    expect((await call(env, "GET", `/api/pages/${a.id}`, { as: third })).status).toBe(200);
  });

  test("on several ancestors must all be satisfied; a group names its members", async () => {
    const { owner, member, third, a, a1, a2 } = await setup();
    const group = (await call(env, "POST", "/api/groups", { as: owner, body: { name: "Inner" } })).body;
    await call(env, "POST", `/api/groups/${group.id}/members`, { as: owner, body: { userId: member.id } });
    await restrict(member, a.id, 0, member.id);
    await restrict(member, a.id, 0, third.id);
    await restrict(member, a1.id, 0, group.id, 1);
    expect((await call(env, "GET", `/api/pages/${a.id}`, { as: third })).status).toBe(200);
    expect((await call(env, "GET", `/api/pages/${a2.id}`, { as: third })).status).toBe(404);
    expect((await call(env, "GET", `/api/pages/${a2.id}`, { as: member })).status).toBe(200);
  });
});

describe("Edit restrictions", () => {
  test("let only those named edit the page and its subtree; others still read it (403, not 404)", async () => {
    const { owner, member, third, a, a2 } = await setup();
    await restrict(member, a.id, 1, member.id);
    const read = await call(env, "GET", `/api/pages/${a2.id}`, { as: third });
    expect(read).toMatchObject({ status: 200, body: { canEdit: false } });
    expect((await call(env, "PUT", `/api/pages/${a2.id}`, { as: third, body: { title: "No" } })).status).toBe(403);
    expect((await call(env, "PUT", `/api/pages/${a2.id}`, { as: member, body: { title: "Yes" } })).status).toBe(200);
    expect((await call(env, "GET", `/api/pages/${a2.id}`, { as: owner })).body.canEdit).toBe(true);
    // A new page under an Edit-restricted page is refused to those it leaves out.
    const child = await call(env, "POST", "/api/pages", { as: third, body: { spaceId: a.spaceId, parentPageId: a2.id, title: "Sneak" } });
    expect(child).toMatchObject({ status: 403, body: { field: "parentPageId" } });
  });
});

describe("POST/GET/DELETE /api/pages/{id}/restrictions", () => {
  test("must name the caller or a group the caller is in (400, nothing written); then others may be added", async () => {
    const { member, third, a } = await setup();
    const refused = await restrict(member, a.id, 0, third.id);
    expect(refused).toMatchObject({ status: 400, body: { field: "principalId" } });
    expect((await call(env, "GET", `/api/pages/${a.id}/restrictions`, { as: member })).body).toEqual([]);
    expect((await restrict(member, a.id, 0, GROUP_ID.everyone, 1)).status).toBe(201);
    expect((await restrict(member, a.id, 0, third.id)).status).toBe(201);
    const again = await restrict(member, a.id, 0, third.id);
    expect(again.status).toBe(200);
    expect(eventsOf(env, "page.restriction_added")).toHaveLength(2);
  });

  test("a space admin may restrict to others only (admins are never shut out)", async () => {
    const { owner, third, a } = await setup();
    expect((await restrict(owner, a.id, 0, third.id)).status).toBe(201);
    expect((await call(env, "GET", `/api/pages/${a.id}`, { as: owner })).status).toBe(200);
  });

  test("only someone who may edit the page restricts it: Edit-restricted 403, hidden 404, read-only viewer 403", async () => {
    const { owner, member, third, a, b } = await setup();
    await restrict(member, a.id, 1, member.id);
    expect((await restrict(third, a.id, 0, third.id)).status).toBe(403);
    await restrict(member, b.id, 0, member.id);
    expect((await restrict(third, b.id, 0, third.id)).status).toBe(404);
    expect((await restrict(owner, "00000000-0000-7000-8000-000000000000", 0, owner.id)).status).toBe(404);
  });

  test("lists the page's own restrictions, then inherited ones, each naming its principal", async () => {
    const { member, third, a, a1 } = await setup();
    const top = (await restrict(member, a.id, 1, member.id)).body;
    const own = (await restrict(member, a1.id, 0, member.id)).body;
    await restrict(member, a1.id, 0, third.id);
    const list = (await call(env, "GET", `/api/pages/${a1.id}/restrictions`, { as: member })).body;
    expect(
      list.map((r: any) => [r.id === own.id || r.id === top.id ? r.id : "x", r.pageId, r.inherited, r.operation, r.principalName]),
    ).toEqual([
      [own.id, a1.id, false, 0, "member"],
      ["x", a1.id, false, 0, "third"],
      [top.id, a.id, true, 1, "member"],
    ]);
    // An inherited restriction is removed on its own page.
    expect((await call(env, "DELETE", `/api/pages/${a1.id}/restrictions/${top.id}`, { as: member })).status).toBe(404);
    expect((await call(env, "GET", `/api/pages/${a1.id}/restrictions`)).status).toBe(404);
  });

  test("removing must not shut the caller out (400); removing them all lifts the restriction", async () => {
    const { member, third, a } = await setup();
    const mine = (await restrict(member, a.id, 0, member.id)).body;
    await restrict(member, a.id, 0, third.id);
    expect((await call(env, "DELETE", `/api/pages/${a.id}/restrictions/${mine.id}`, { as: member })).body.field).toBe("id");
    expect((await call(env, "DELETE", `/api/pages/${a.id}/restrictions`, { as: member })).status).toBe(204);
    expect((await call(env, "GET", `/api/pages/${a.id}/restrictions`, { as: member })).body).toEqual([]);
    expect(eventsOf(env, "page.restriction_removed")).toHaveLength(2);
  });

  test("DELETE with operation lifts only that operation's restriction; a bad operation is 400", async () => {
    const { member, a } = await setup();
    await restrict(member, a.id, 0, member.id);
    await restrict(member, a.id, 1, member.id);
    expect((await call(env, "DELETE", `/api/pages/${a.id}/restrictions?operation=0`, { as: member })).status).toBe(204);
    expect((await call(env, "GET", `/api/pages/${a.id}/restrictions`, { as: member })).body.map((r: any) => r.operation)).toEqual([1]);
    expect((await call(env, "DELETE", `/api/pages/${a.id}/restrictions?operation=2`, { as: member })).status).toBe(400);
  });

  test("a deleted group leaves the page restricted to space admins, never open", async () => {
    const { owner, member, third, a } = await setup();
    const group = (await call(env, "POST", "/api/groups", { as: owner, body: { name: "Few" } })).body;
    await call(env, "POST", `/api/groups/${group.id}/members`, { as: owner, body: { userId: member.id } });
    await restrict(member, a.id, 0, group.id, 1);
    await call(env, "DELETE", `/api/groups/${group.id}`, { as: owner });
    expect((await call(env, "GET", `/api/pages/${a.id}`, { as: third })).status).toBe(404);
    expect((await call(env, "GET", `/api/pages/${a.id}`, { as: member })).status).toBe(404);
    const list = (await call(env, "GET", `/api/pages/${a.id}/restrictions`, { as: owner })).body;
    expect(list).toMatchObject([{ principalId: group.id, principalName: null }]);
  });

  test.each([
    ["operation", { principalType: 0, operation: 2 }],
    ["principalType", { principalType: 3, operation: 0 }],
    ["principalId", { principalType: 1, operation: 0, principalId: "00000000-0000-7000-8000-00000000dead" }],
  ])("refuses a bad %s (400 on the field)", async (field, body) => {
    const { member, a } = await setup();
    const res = await call(env, "POST", `/api/pages/${a.id}/restrictions`, { as: member, body: { principalId: member.id, ...body } });
    expect(res).toMatchObject({ status: 400, body: { field } });
  });
});

describe("copying a restricted page", () => {
  test("carries the restrictions set on the copied pages and leaves out what the caller cannot see", async () => {
    const { owner, member, third, space, a, a1 } = await setup();
    await restrict(member, a.id, 1, member.id);
    await restrict(owner, a1.id, 0, owner.id);
    const copy = await call(env, "POST", `/api/pages/${a.id}/copy`, { as: member, body: { parentPageId: null, includeChildren: true } });
    expect(copy.status).toBe(201);
    expect(copy.body.title).toBe("Copy of A");
    const tree = await treeOf(env, owner, space.id);
    const copied = tree.find((n) => n.id === copy.body.id)!;
    expect(copied.children).toEqual([]);
    const list = (await call(env, "GET", `/api/pages/${copy.body.id}/restrictions`, { as: member })).body;
    expect(list.map((r: any) => [r.operation, r.principalId])).toEqual([[1, member.id]]);
    expect((await call(env, "PUT", `/api/pages/${copy.body.id}`, { as: third, body: { title: "No" } })).status).toBe(403);
  });
});
