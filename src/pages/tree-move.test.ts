import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { call, makeEnv, signUp, type TestEnv } from "../../tests/harness";
import { eventsOf, newPage, newSpace, titles, treeOf } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

/** DOCS: A (A1, A2 (A2a)), B, C */
async function setup() {
  const owner = await signUp(env, "owner@example.com");
  const space = await newSpace(env, owner, "DOCS");
  const a = await newPage(env, owner, space.id, "A");
  const a1 = await newPage(env, owner, space.id, "A1", { parentPageId: a.id });
  const a2 = await newPage(env, owner, space.id, "A2", { parentPageId: a.id });
  const a2a = await newPage(env, owner, space.id, "A2a", { parentPageId: a2.id });
  const b = await newPage(env, owner, space.id, "B");
  const c = await newPage(env, owner, space.id, "C");
  return { owner, space, a, a1, a2, a2a, b, c };
}

const move = (who: { cookie: string }, id: string, body: object) => call(env, "PUT", `/api/pages/${id}/move`, { as: who, body });

describe("GET /api/pages/tree", () => {
  test("a tree kept between requests is never answered after a change, whoever made it", async () => {
    const { owner, space, b } = await setup();
    expect(titles(await treeOf(env, owner, space.id))).toEqual(["A", ["A1", "A2", ["A2a"]], "B", "C"]);
    await call(env, "PUT", `/api/pages/${b.id}`, { as: owner, body: { title: "B renamed" } });
    expect(titles(await treeOf(env, owner, space.id))).toEqual(["A", ["A1", "A2", ["A2a"]], "B renamed", "C"]);
    // Another process writing the same database file (the CLI, a restore) is seen too.
    const other = new Database(join(env.dir, "cairn.db"));
    other.run("PRAGMA busy_timeout = 5000");
    other.run("UPDATE pages SET title = 'C from elsewhere' WHERE title = 'C'");
    other.close();
    expect(titles(await treeOf(env, owner, space.id))).toEqual(["A", ["A1", "A2", ["A2a"]], "B renamed", "C from elsewhere"]);
  });

  test("callers shut out of different pages never share a kept tree", async () => {
    const { owner, space, a, b } = await setup();
    const invite = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
    const member = await signUp(env, "member@example.com", { inviteToken: invite.body.token });
    await call(env, "POST", `/api/pages/${a.id}/restrictions`, {
      as: owner,
      body: { principalType: 0, principalId: owner.id, operation: 0 },
    });
    await call(env, "POST", `/api/pages/${b.id}/restrictions`, {
      as: owner,
      body: { principalType: 0, principalId: member.id, operation: 0 },
    });
    for (let round = 0; round < 2; round++) {
      expect(titles(await treeOf(env, member, space.id))).toEqual(["B", "C"]);
      expect(titles(await treeOf(env, owner, space.id))).toEqual(["A", ["A1", "A2", ["A2a"]], "B", "C"]);
    }
  });

  test(
    "a page whose Edit restriction leaves the caller out is marked read-only, " + "with its subtree; others and space admins see no mark",
    async () => {
      const { owner, space, a, a2, b } = await setup();
      const invite = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
      const member = await signUp(env, "member@example.com", { inviteToken: invite.body.token });
      await call(env, "POST", `/api/pages/${a2.id}/restrictions`, {
        as: owner,
        body: { principalType: 0, principalId: owner.id, operation: 1 },
      });
      await call(env, "POST", `/api/pages/${b.id}/restrictions`, {
        as: owner,
        body: { principalType: 0, principalId: member.id, operation: 1 },
      });
      const readOnly = (nodes: Array<{ title: string; readOnly?: boolean; children: unknown[] }>): string[] =>
        nodes.flatMap((n) => [...(n.readOnly ? [n.title] : []), ...readOnly(n.children as typeof nodes)]);
      for (let round = 0; round < 2; round++) {
        expect(readOnly(await treeOf(env, member, space.id))).toEqual(["A2", "A2a"]);
        expect(readOnly(await treeOf(env, owner, space.id))).toEqual([]);
      }
      // What the mark says is what the server does: the member may not add a page inside A2, may inside A.
      expect(
        (await call(env, "POST", "/api/pages", { as: member, body: { spaceId: space.id, title: "x", parentPageId: a2.id } })).status,
      ).toBe(403);
      expect(
        (await call(env, "POST", "/api/pages", { as: member, body: { spaceId: space.id, title: "y", parentPageId: a.id } })).status,
      ).toBe(201);
    },
  );

  test("nests published pages, each level by position", async () => {
    const { owner, space } = await setup();
    expect(titles(await treeOf(env, owner, space.id))).toEqual(["A", ["A1", "A2", ["A2a"]], "B", "C"]);
  });

  test("leaves out drafts and the trash; equal positions fall back to title order", async () => {
    const { owner, space, b } = await setup();
    await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } });
    await call(env, "DELETE", `/api/pages/${b.id}`, { as: owner });
    env.core.sqlite.run("UPDATE pages SET position = 0 WHERE parent_id IS NULL");
    expect(titles(await treeOf(env, owner, space.id))).toEqual(["A", ["A1", "A2", ["A2a"]], "C"]);
  });

  test("nodes carry id, title, emoji, position and children", async () => {
    const { owner, space, c } = await setup();
    await call(env, "PUT", `/api/pages/${c.id}/emoji`, { as: owner, body: { emoji: "🌱" } });
    const tree = await treeOf(env, owner, space.id);
    expect(tree[2]).toEqual({ id: c.id, title: "C", emoji: "🌱", position: 2, children: [] });
  });

  test("answers JSON with the security headers (it is sent as a ready response)", async () => {
    const { owner, space } = await setup();
    const res = await call(env, "GET", `/api/pages/tree?spaceId=${space.id}`, { as: owner });
    expect(res.headers.get("content-type")).toStartWith("application/json");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  test("needs spaceId (400); an unknown or invisible space is 404", async () => {
    const { owner, space } = await setup();
    expect((await call(env, "GET", "/api/pages/tree", { as: owner })).status).toBe(400);
    expect((await call(env, "GET", "/api/pages/tree?spaceId=0190-missing", { as: owner })).status).toBe(404);
    expect((await call(env, "GET", `/api/pages/tree?spaceId=${space.id}`)).status).toBe(404);
  });
});

describe("PUT /api/pages/{id}/move", () => {
  test("index places the page among its new siblings and renumbers them", async () => {
    const { owner, space, c } = await setup();
    const res = await move(owner, c.id, { parentPageId: null, index: 0 });
    expect(res.body).toMatchObject({ position: 0, parentPageId: null });
    const tree = await treeOf(env, owner, space.id);
    expect(tree.map((n) => [n.title, n.position])).toEqual([
      ["C", 0],
      ["A", 1],
      ["B", 2],
    ]);
  });

  test("without parentPageId the page stays under its parent (a reorder); past the end means last", async () => {
    const { owner, space, a1 } = await setup();
    await move(owner, a1.id, { index: 99 });
    expect(titles(await treeOf(env, owner, space.id))).toEqual(["A", ["A2", ["A2a"], "A1"], "B", "C"]);
  });

  test("under another parent, and the siblings it left are renumbered", async () => {
    const { owner, space, a1, b } = await setup();
    const res = await move(owner, a1.id, { parentPageId: b.id });
    expect(res.body).toMatchObject({ parentPageId: b.id, position: 0 });
    const tree = await treeOf(env, owner, space.id);
    expect(titles(tree)).toEqual(["A", ["A2", ["A2a"]], "B", ["A1"], "C"]);
    expect(tree[0].children[0].position).toBe(0);
    expect(eventsOf(env, "page.moved")[0].data).toMatchObject({
      from: { parentPageId: tree[0].id, position: 0 },
      to: { parentPageId: b.id, position: 0 },
    });
  });

  test.each([
    ["itself", "a"],
    ["its child", "a2"],
    ["its grandchild", "a2a"],
  ])("under %s is 400 on parentPageId and changes nothing", async (_what, target) => {
    const pages = await setup();
    const res = await move(pages.owner, pages.a.id, { parentPageId: (pages as any)[target].id });
    expect(res).toMatchObject({ status: 400, body: { field: "parentPageId" } });
    expect(titles(await treeOf(env, pages.owner, pages.space.id))).toEqual(["A", ["A1", "A2", ["A2a"]], "B", "C"]);
    expect(eventsOf(env, "page.moved")).toHaveLength(0);
  });

  test("to another space moves the whole subtree and renumbers what is left", async () => {
    const { owner, space, a, a2, a2a } = await setup();
    const other = await newSpace(env, owner, "OTHER");
    await newPage(env, owner, other.id, "Existing");
    const res = await move(owner, a.id, { spaceId: other.id, index: 0 });
    expect(res.body).toMatchObject({ spaceId: other.id, parentPageId: null, position: 0 });
    expect(titles(await treeOf(env, owner, other.id))).toEqual(["A", ["A1", "A2", ["A2a"]], "Existing"]);
    expect((await treeOf(env, owner, space.id)).map((n) => [n.title, n.position])).toEqual([
      ["B", 0],
      ["C", 1],
    ]);
    for (const p of [a2, a2a]) expect((await call(env, "GET", `/api/pages/${p.id}`, { as: owner })).body.spaceId).toBe(other.id);
    expect(eventsOf(env, "page.moved")[0]).toMatchObject({ spaceId: other.id, data: { from: { spaceId: space.id }, pageCount: 4 } });
  });

  test("to another space under a parent there", async () => {
    const { owner, a2 } = await setup();
    const other = await newSpace(env, owner, "OTHER");
    const home = await newPage(env, owner, other.id, "Home");
    await move(owner, a2.id, { spaceId: other.id, parentPageId: home.id });
    expect(titles(await treeOf(env, owner, other.id))).toEqual(["Home", ["A2", ["A2a"]]]);
  });

  test("every id is checked on its own: a parent in another space is 400, unknown ids 404, an archived target 403", async () => {
    const { owner, space, a, b } = await setup();
    const other = await newSpace(env, owner, "OTHER");
    const foreign = await newPage(env, owner, other.id, "Foreign");
    expect((await move(owner, a.id, { parentPageId: foreign.id })).body.field).toBe("parentPageId");
    expect((await move(owner, a.id, { spaceId: space.id, parentPageId: foreign.id })).body.field).toBe("parentPageId");
    expect((await move(owner, a.id, { parentPageId: "0190-missing" })).status).toBe(404);
    expect((await move(owner, a.id, { spaceId: "0190-missing" })).status).toBe(404);
    expect((await move(owner, "0190-missing", { parentPageId: b.id })).status).toBe(404);
    await call(env, "POST", "/api/spaces/OTHER/archive", { as: owner });
    expect((await move(owner, a.id, { spaceId: other.id })).status).toBe(403);
  });

  test("a draft cannot be moved (409); a negative index is 400", async () => {
    const { owner, space, b } = await setup();
    const draft = await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } });
    expect((await move(owner, draft.body.id, { parentPageId: b.id })).status).toBe(409);
    expect((await move(owner, b.id, { index: -1 })).status).toBe(400);
  });
});
