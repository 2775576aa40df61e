import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, signUp, type TestEnv } from "../../tests/harness";
import { doc, eventsOf, newPage, newSpace, titles, treeOf } from "../pages/testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

/** DOCS: A (A1, A2 (A2a)), B; A has three versions. */
async function setup() {
  const owner = await signUp(env, "owner@example.com");
  const space = await newSpace(env, owner, "DOCS");
  const a = await newPage(env, owner, space.id, "A", { contentJson: doc("v1") });
  await call(env, "PUT", `/api/pages/${a.id}`, { as: owner, body: { contentJson: doc("v2") } });
  await call(env, "PUT", `/api/pages/${a.id}`, { as: owner, body: { contentJson: doc("v3") } });
  const a1 = await newPage(env, owner, space.id, "A1", { parentPageId: a.id });
  const a2 = await newPage(env, owner, space.id, "A2", { parentPageId: a.id });
  await newPage(env, owner, space.id, "A2a", { parentPageId: a2.id });
  const b = await newPage(env, owner, space.id, "B");
  return { owner, space, a, a1, a2, b };
}

const copy = (who: { cookie: string }, id: string, body: object) => call(env, "POST", `/api/pages/${id}/copy`, { as: who, body });

describe("POST /api/pages/{id}/copy", () => {
  test("without children: one new page beside the source, titled 'Copy of …', with a fresh history", async () => {
    const { owner, space, a } = await setup();
    const res = await copy(owner, a.id, {});
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: "Copy of A",
      contentJson: doc("v3"),
      currentVersionNumber: 1,
      parentPageId: null,
      position: 2,
      spaceId: space.id,
      status: 1,
    });
    expect(res.body.id).not.toBe(a.id);
    const versions = await call(env, "GET", `/api/pages/${res.body.id}/versions`, { as: owner });
    expect(versions.body).toHaveLength(1);
    expect(versions.body[0].changeComment).toBe("Copied from “A” (version 3)");
    expect(titles(await treeOf(env, owner, space.id))).toEqual(["A", ["A1", "A2", ["A2a"]], "B", "Copy of A"]);
    expect(eventsOf(env, "page.created").at(-1)!.data).toMatchObject({ copiedFromId: a.id });
  });

  test("with children: the published subtree in its order, each page with version 1 and page.created", async () => {
    const { owner, space, a, b } = await setup();
    const before = eventsOf(env, "page.created").length;
    const res = await copy(owner, a.id, { parentPageId: b.id, includeChildren: true });
    expect(res.body).toMatchObject({ title: "A", parentPageId: b.id, currentVersionNumber: 1 });
    expect(titles(await treeOf(env, owner, space.id))).toEqual(["A", ["A1", "A2", ["A2a"]], "B", ["A", ["A1", "A2", ["A2a"]]]]);
    expect(eventsOf(env, "page.created").length - before).toBe(4);
    const versions = env.core.sqlite
      .query("SELECT count(*) AS n FROM page_versions v JOIN pages p ON p.id = v.page_id WHERE p.parent_id = ? OR p.id = ?")
      .get(res.body.id, res.body.id) as { n: number };
    expect(versions.n).toBe(3); // the copy and its two children, one version each
  });

  test("leaves drafts and trashed children behind", async () => {
    const { owner, space, a, a1 } = await setup();
    await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id, parentPageId: a.id } });
    await call(env, "DELETE", `/api/pages/${a1.id}`, { as: owner });
    const other = await newSpace(env, owner, "OTHER");
    await copy(owner, a.id, { spaceId: other.id, includeChildren: true });
    expect(titles(await treeOf(env, owner, other.id))).toEqual(["A", ["A2", ["A2a"]]]);
  });

  test("into another space keeps the title and lands at its top level", async () => {
    const { owner, a1 } = await setup();
    const other = await newSpace(env, owner, "OTHER");
    const res = await copy(owner, a1.id, { spaceId: other.id });
    expect(res.body).toMatchObject({ title: "A1", spaceId: other.id, parentPageId: null });
  });

  test("into its own subtree copies what was there before the copy", async () => {
    const { owner, space, a, a2 } = await setup();
    await copy(owner, a.id, { parentPageId: a2.id, includeChildren: true });
    expect(titles(await treeOf(env, owner, space.id))).toEqual(["A", ["A1", "A2", ["A2a", "A", ["A1", "A2", ["A2a"]]]], "B"]);
  });

  test("checks every id on its own: source, target space and target parent", async () => {
    const { owner, a } = await setup();
    const other = await newSpace(env, owner, "OTHER");
    const foreign = await newPage(env, owner, other.id, "Foreign");
    expect((await copy(owner, "0190-missing", {})).status).toBe(404);
    expect((await copy(owner, a.id, { spaceId: "0190-missing" })).status).toBe(404);
    expect((await copy(owner, a.id, { parentPageId: "0190-missing" })).status).toBe(404);
    expect((await copy(owner, a.id, { parentPageId: foreign.id })).body.field).toBe("parentPageId");
    await call(env, "POST", "/api/spaces/OTHER/archive", { as: owner });
    expect((await copy(owner, a.id, { spaceId: other.id })).status).toBe(403);
    expect((await copy({ cookie: "" }, a.id, {})).status).toBe(401);
  });

  test("a page of an archived space can be copied out of it (the source is only read)", async () => {
    const { owner, a } = await setup();
    const other = await newSpace(env, owner, "OTHER");
    await call(env, "POST", "/api/spaces/DOCS/archive", { as: owner });
    expect((await copy(owner, a.id, {})).status).toBe(403);
    expect((await copy(owner, a.id, { spaceId: other.id })).status).toBe(201);
  });
});

test("a copy beside its source still needs Edit on the source's parent (an Edit restriction there leaves the caller out)", async () => {
  const { owner, member } = await ownerAndMember(env);
  const space = await newSpace(env, owner, "DOCS");
  const parent = await newPage(env, owner, space.id, "Parent");
  const child = await newPage(env, owner, space.id, "Child", { parentPageId: parent.id });
  const restrict = await call(env, "POST", `/api/pages/${parent.id}/restrictions`, {
    as: owner,
    body: { principalType: 0, principalId: owner.id, operation: 1 },
  });
  expect(restrict.status).toBe(201);
  const refused = await copy(member, child.id, {});
  expect(refused.status).toBe(403);
  expect(refused.body.field).toBe("parentPageId");
  expect(titles(await treeOf(env, owner, space.id))).not.toContain("Copy of Child");
  // At the top level, where the member may edit, the same copy is fine.
  expect((await copy(member, child.id, { parentPageId: null })).status).toBe(201);
});
