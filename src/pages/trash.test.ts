import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, cookieFrom, makeEnv, mintToken, ownerAndMember, PASSWORD, signUp, type TestEnv, type Who } from "../../tests/harness";
import { ROLE_ID } from "../identity/rights";
import { GROUP_ID } from "../identity/builtin-groups";
import { eventsOf, newPage, newSpace, titles, treeOf } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

/** DOCS: A (A1 (A1a), A2), B */
async function setup() {
  const owner = await signUp(env, "owner@example.com");
  const space = await newSpace(env, owner, "DOCS");
  const a = await newPage(env, owner, space.id, "A");
  const a1 = await newPage(env, owner, space.id, "A1", { parentPageId: a.id });
  const a1a = await newPage(env, owner, space.id, "A1a", { parentPageId: a1.id });
  const a2 = await newPage(env, owner, space.id, "A2", { parentPageId: a.id });
  const b = await newPage(env, owner, space.id, "B");
  return { owner, space, a, a1, a1a, a2, b };
}

const count = (sql: string, ...args: string[]) => (env.core.sqlite.query(sql).get(...args) as { n: number }).n;
const trashOf = async (who: { cookie: string }, spaceId?: string) =>
  (await call(env, "GET", `/api/pages/trash${spaceId ? `?spaceId=${spaceId}` : ""}`, { as: who })).body;

describe("DELETE /api/pages/{id} and GET /api/pages/trash", () => {
  test("moves the page and its live subtree to the trash; the trash lists the root only", async () => {
    const { owner, space, a, a1a } = await setup();
    expect((await call(env, "DELETE", `/api/pages/${a.id}`, { as: owner })).status).toBe(204);
    expect(titles(await treeOf(env, owner, space.id))).toEqual(["B"]);
    const trash = await trashOf(owner, space.id);
    expect(trash).toHaveLength(1);
    expect(trash[0]).toMatchObject({
      id: a.id,
      title: "A",
      spaceId: space.id,
      deletedById: owner.id,
      deletedByName: "owner",
      pageCount: 4,
    });
    // A trashed page is still readable, never editable.
    const read = await call(env, "GET", `/api/pages/${a1a.id}`, { as: owner });
    expect(read.body).toMatchObject({ canEdit: false });
    expect(read.body.deletedAt).toBeString();
    expect((await call(env, "PUT", `/api/pages/${a1a.id}`, { as: owner, body: { title: "X" } })).status).toBe(409);
    expect((await call(env, "DELETE", `/api/pages/${a.id}`, { as: owner })).status).toBe(409);
    expect(eventsOf(env, "page.trashed")[0]).toMatchObject({ targetId: a.id, data: { pageIds: expect.arrayContaining([a1a.id]) } });
  });

  test("lists the trash of every visible space without spaceId, newest first; drafts only for their creator", async () => {
    const { owner, member } = await ownerAndMember(env);
    const docs = await newSpace(env, owner, "DOCS");
    const other = await newSpace(env, owner, "OTHER");
    const x = await newPage(env, owner, docs.id, "X");
    const y = await newPage(env, owner, other.id, "Y");
    const draft = await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: docs.id } });
    await call(env, "DELETE", `/api/pages/${x.id}`, { as: owner });
    env.clock.advance(1000);
    await call(env, "DELETE", `/api/pages/${y.id}`, { as: owner });
    env.clock.advance(1000);
    await call(env, "DELETE", `/api/pages/${draft.body.id}`, { as: owner });
    expect((await trashOf(owner)).map((e: any) => e.id)).toEqual([draft.body.id, y.id, x.id]);
    expect((await trashOf(member)).map((e: any) => e.id)).toEqual([y.id, x.id]);
    expect((await trashOf(owner, other.id)).map((e: any) => e.id)).toEqual([y.id]);
    expect((await call(env, "GET", "/api/pages/trash?spaceId=0190-missing", { as: owner })).status).toBe(404);
    expect((await call(env, "GET", "/api/pages/trash")).body).toEqual([]);
  });
});

describe("POST /api/pages/{id}/restore", () => {
  test("brings the subtree back under its parent, at the end of its siblings", async () => {
    const { owner, space, a1 } = await setup();
    await call(env, "DELETE", `/api/pages/${a1.id}`, { as: owner });
    const res = await call(env, "POST", `/api/pages/${a1.id}/restore`, { as: owner });
    expect(res.body).toMatchObject({ deletedAt: null, parentPageId: expect.any(String), position: 1, canEdit: true });
    expect(titles(await treeOf(env, owner, space.id))).toEqual(["A", ["A2", "A1", ["A1a"]], "B"]);
    expect(eventsOf(env, "page.restored").map((e) => e.targetId)).toEqual([a1.id]);
    expect(await trashOf(owner)).toEqual([]);
  });

  test("to the top level when the old parent is gone, and never brings back a sub-page trashed on its own", async () => {
    const { owner, space, a, a1, a1a } = await setup();
    await call(env, "DELETE", `/api/pages/${a1a.id}`, { as: owner });
    await call(env, "DELETE", `/api/pages/${a1.id}`, { as: owner });
    await call(env, "DELETE", `/api/pages/${a.id}`, { as: owner });
    // A1 left in its own batch, before A: restoring it while A is in the trash puts it at the top.
    const res = await call(env, "POST", `/api/pages/${a1.id}/restore`, { as: owner });
    expect(res.body.parentPageId).toBeNull();
    expect(titles(await treeOf(env, owner, space.id))).toEqual(["B", "A1"]);
    expect((await trashOf(owner)).map((e: any) => e.id).sort()).toEqual([a.id, a1a.id].sort());
  });

  test("a page that is not in the trash is 409; a read-only token 403", async () => {
    const { owner, a } = await setup();
    expect((await call(env, "POST", `/api/pages/${a.id}/restore`, { as: owner })).status).toBe(409);
    const ro = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect((await call(env, "POST", `/api/pages/${a.id}/restore`, { as: { token: ro } })).body.code).toBe("read_only_token");
  });
});

describe("DELETE /api/pages/{id}/purge", () => {
  test("removes the batch and its versions for good; a sub-page trashed on its own keeps its entry", async () => {
    const { owner, a, a1, a1a } = await setup();
    await call(env, "DELETE", `/api/pages/${a1a.id}`, { as: owner });
    await call(env, "DELETE", `/api/pages/${a.id}`, { as: owner });
    expect((await call(env, "DELETE", `/api/pages/${a.id}/purge`, { as: owner })).status).toBe(204);
    for (const p of [a, a1]) expect((await call(env, "GET", `/api/pages/${p.id}`, { as: owner })).status).toBe(404);
    expect(count("SELECT count(*) AS n FROM page_versions WHERE page_id IN (?, ?)", a.id, a1.id)).toBe(0);
    expect((await trashOf(owner)).map((e: any) => e.id)).toEqual([a1a.id]);
    expect(eventsOf(env, "page.purged")[0]).toMatchObject({ targetId: a.id, data: { pageIds: expect.arrayContaining([a.id, a1.id]) } });
    const restored = await call(env, "POST", `/api/pages/${a1a.id}/restore`, { as: owner });
    expect(restored.body.parentPageId).toBeNull();
  });

  test("needs a recent re-authentication: tokens get 403 reauth_required, an old session too until it confirms", async () => {
    const { owner, a } = await setup();
    await call(env, "DELETE", `/api/pages/${a.id}`, { as: owner });
    const token = await mintToken(env, owner);
    expect((await call(env, "DELETE", `/api/pages/${a.id}/purge`, { as: { token } })).body.code).toBe("reauth_required");
    env.clock.advance(6 * 60_000);
    expect((await call(env, "DELETE", `/api/pages/${a.id}/purge`, { as: owner })).body.code).toBe("reauth_required");
    expect(count("SELECT count(*) AS n FROM pages")).toBe(5);
    const reauth = await call(env, "POST", "/api/auth/reauth", { as: owner, body: { password: PASSWORD } });
    expect((await call(env, "DELETE", `/api/pages/${a.id}/purge`, { as: { cookie: cookieFrom(reauth) } })).status).toBe(204);
  });

  test("a live page is 409 (trash it first); an unknown page 404", async () => {
    const { owner, b } = await setup();
    expect((await call(env, "DELETE", `/api/pages/${b.id}/purge`, { as: owner })).status).toBe(409);
    expect((await call(env, "DELETE", "/api/pages/0190-missing/purge", { as: owner })).status).toBe(404);
  });
});

describe("DELETE /api/pages/{id}/purge: whose pages", () => {
  const purge = (who: Who, id: string) => call(env, "DELETE", `/api/pages/${id}/purge`, { as: who });
  const trash = (who: Who, id: string) => call(env, "DELETE", `/api/pages/${id}`, { as: who });
  const exists = (id: string) => count("SELECT count(*) AS n FROM pages WHERE id = ?", id) === 1;

  test("Edit purges only the caller's own pages; anyone else's needs Admin on the space", async () => {
    const { owner, member } = await ownerAndMember(env);
    const space = await newSpace(env, owner, "DOCS"); // the owner is its admin; the member edits through Everyone
    const mine = await newPage(env, member, space.id, "Mine");
    const theirs = await newPage(env, owner, space.id, "Theirs");
    for (const p of [mine, theirs]) await trash(member, p.id);
    expect((await purge(member, mine.id)).status).toBe(204);
    expect(await purge(member, theirs.id)).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect(exists(theirs.id)).toBe(true);
    expect(eventsOf(env, "page.purged").map((e) => e.targetId)).toEqual([mine.id]);
    // Its space's admin may.
    expect((await purge(owner, theirs.id)).status).toBe(204);
  });

  test("the whole batch counts: one's own page with someone else's sub-page in it needs Admin", async () => {
    const { owner, member } = await ownerAndMember(env);
    const space = await newSpace(env, owner, "DOCS");
    const mine = await newPage(env, member, space.id, "Mine");
    const child = await newPage(env, owner, space.id, "Owner's child", { parentPageId: mine.id });
    await trash(member, mine.id);
    expect((await purge(member, mine.id)).status).toBe(403);
    expect([exists(mine.id), exists(child.id)]).toEqual([true, true]);
  });

  test("a space admin without pages.delete_any purges others' pages in their space", async () => {
    const { owner, member } = await ownerAndMember(env);
    const space = await newSpace(env, member, "TEAM");
    const page = await newPage(env, owner, space.id, "The owner's");
    await trash(owner, page.id);
    expect((await purge(member, page.id)).status).toBe(204);
  });

  test("the right pages.delete_any purges others' pages where its holder may edit, and opens no space", async () => {
    const { owner, member } = await ownerAndMember(env);
    const space = await newSpace(env, owner, "DOCS");
    const a = await newPage(env, owner, space.id, "A");
    const b = await newPage(env, owner, space.id, "B");
    for (const p of [a, b]) await trash(owner, p.id);
    env.core.sqlite
      .query("UPDATE roles SET permissions = ? WHERE id = ?")
      .run(JSON.stringify(["tokens.use", "spaces.create", "pages.delete_any"]), ROLE_ID.user);
    expect((await purge(member, a.id)).status).toBe(204);
    // Down to View on the space: the right does not stand in for Edit.
    await call(env, "POST", "/api/spaces/DOCS/permissions", {
      as: owner,
      body: { principalType: 1, principalId: GROUP_ID.everyone, operation: 0 },
    });
    expect((await purge(member, b.id)).status).toBe(403);
    expect(exists(b.id)).toBe(true);
  });
});
