import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, type TestEnv, type Who } from "../../tests/harness";
import { eventsOf, newPage, ownerMemberAndPage } from "../pages/testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const setup = () => ownerMemberAndPage(env);

const add = (who: Who, pageId: string, name: unknown) => call(env, "POST", `/api/pages/${pageId}/labels`, { as: who, body: { name } });
const labelsOf = async (who: Who, pageId: string) =>
  (await call(env, "GET", `/api/pages/${pageId}/labels`, { as: who })).body.map((l: { name: string }) => l.name);
const counts = async (who: Who) =>
  Object.fromEntries(
    (await call(env, "GET", "/api/labels", { as: who })).body.map((l: { name: string; pageCount: number }) => [l.name, l.pageCount]),
  );
const linkCount = () => (env.core.sqlite.query("SELECT count(*) AS n FROM page_labels").get() as { n: number }).n;

describe("POST /api/pages/{id}/labels", () => {
  test("adds a label (201, lower-cased) with label.added; adding it again is harmless (200, no event)", async () => {
    const { owner, page, space } = await setup();
    const res = await add(owner, page.id, "How-To.v2");
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), name: "how-to.v2" });
    const again = await add(owner, page.id, "how-to.v2");
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect(await labelsOf(owner, page.id)).toEqual(["how-to.v2"]);
    expect(eventsOf(env, "label.added")).toHaveLength(1);
    expect(eventsOf(env, "label.added")[0]).toMatchObject({
      targetType: "page",
      targetId: page.id,
      spaceId: space.id,
      data: { labelId: res.body.id, name: "how-to.v2" },
    });
  });

  test("the same name on two pages is one label", async () => {
    const { owner, page, space } = await setup();
    const other = await newPage(env, owner, space.id, "Other");
    const a = await add(owner, page.id, "ops");
    const b = await add(owner, other.id, "OPS");
    expect(b.status).toBe(201);
    expect(b.body.id).toBe(a.body.id);
    expect(await counts(owner)).toEqual({ ops: 2 });
  });

  test.each([
    ["a space", "two words"],
    ["a leading space", " ops"],
    ["51 characters", "a".repeat(51)],
    ["a leading dot", ".hidden"],
    ["a leading dash", "-x"],
    ["an emoji", "🚀"],
    ["a zero-width space", "a\u200Bb"],
    ["a slash", "a/b"],
    ["an empty name", ""],
    ["a number instead of text", 42],
  ])("refuses %s: 400 on name, nothing stored", async (_why, name) => {
    const { owner, page } = await setup();
    const res = await add(owner, page.id, name);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("name");
    expect(linkCount()).toBe(0);
    expect(eventsOf(env, "label.added")).toHaveLength(0);
  });

  test("50 characters, digits first and . _ - inside are fine", async () => {
    const { owner, page } = await setup();
    for (const name of ["a".repeat(50), "2024", "v1.2_beta-3"]) expect((await add(owner, page.id, name)).status).toBe(201);
  });

  test("needs Edit: anonymous 401, a read-only token 403, an unseen page 404, a trashed page 409, an archived space 403", async () => {
    const { owner, member, space, page } = await setup();
    expect((await add({}, page.id, "x")).status).toBe(401);
    const ro = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect((await add({ token: ro }, page.id, "x")).body.code).toBe("read_only_token");
    const draft = await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } });
    const hidden = await add(member, draft.body.id, "x");
    const missing = await add(member, "0190-missing", "x");
    expect(hidden.status).toBe(404);
    expect(hidden.text).toBe(missing.text);
    expect((await add(member, page.id, "member-ok")).status).toBe(201);
    const trashed = await newPage(env, owner, space.id, "Trashed");
    await call(env, "DELETE", `/api/pages/${trashed.id}`, { as: owner });
    expect((await add(owner, trashed.id, "x")).status).toBe(409);
    await call(env, "POST", "/api/spaces/DOCS/archive", { as: owner });
    expect((await add(owner, page.id, "x")).status).toBe(403);
    expect(linkCount()).toBe(1);
  });
});

describe("DELETE /api/pages/{id}/labels/{name}", () => {
  test("removes it (any case) with label.removed; a label the page lacks is 404; a bad name 400", async () => {
    const { owner, page, space } = await setup();
    await add(owner, page.id, "ops");
    expect((await call(env, "DELETE", `/api/pages/${page.id}/labels/OPS`, { as: owner })).status).toBe(204);
    expect(await labelsOf(owner, page.id)).toEqual([]);
    expect(eventsOf(env, "label.removed")[0]).toMatchObject({ targetId: page.id, spaceId: space.id, data: { name: "ops" } });
    expect((await call(env, "DELETE", `/api/pages/${page.id}/labels/ops`, { as: owner })).status).toBe(404);
    expect((await call(env, "DELETE", `/api/pages/${page.id}/labels/never`, { as: owner })).status).toBe(404);
    const bad = await call(env, "DELETE", `/api/pages/${page.id}/labels/two%20words`, { as: owner });
    expect(bad).toMatchObject({ status: 400, body: { field: "name" } });
    expect(eventsOf(env, "label.removed")).toHaveLength(1);
  });

  test("a read-only token is 403; an unseen page 404", async () => {
    const { owner, member, space, page } = await setup();
    await add(owner, page.id, "ops");
    const ro = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect((await call(env, "DELETE", `/api/pages/${page.id}/labels/ops`, { as: { token: ro } })).status).toBe(403);
    const draft = await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } });
    await add(owner, draft.body.id, "ops");
    expect((await call(env, "DELETE", `/api/pages/${draft.body.id}/labels/ops`, { as: member })).status).toBe(404);
    expect(linkCount()).toBe(2);
  });
});

describe("label lists", () => {
  test("counts and pages leave out drafts, other people's drafts, the trash; labels with nothing visible are left out", async () => {
    const { owner, member, space, page } = await setup();
    const second = await newPage(env, owner, space.id, "Another guide");
    const trashed = await newPage(env, owner, space.id, "Old");
    const ownerDraft = await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } });
    const memberDraft = await call(env, "POST", "/api/pages/draft", { as: member, body: { spaceId: space.id } });
    for (const id of [page.id, second.id, trashed.id, ownerDraft.body.id]) await add(owner, id, "guide");
    await add(owner, ownerDraft.body.id, "secret-plan");
    await add(member, memberDraft.body.id, "member-draft");
    await add(owner, trashed.id, "archive");
    await call(env, "DELETE", `/api/pages/${trashed.id}`, { as: owner });

    expect(await counts(owner)).toEqual({ guide: 2 });
    expect(await counts(member)).toEqual({ guide: 2 });
    const listed = await call(env, "GET", "/api/labels/GUIDE/pages", { as: member });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      { id: second.id, spaceId: space.id, spaceKey: "DOCS", title: "Another guide", emoji: null, updatedAt: expect.any(String) },
      { id: page.id, spaceId: space.id, spaceKey: "DOCS", title: "Guide", emoji: null, updatedAt: expect.any(String) },
    ]);
    for (const name of ["secret-plan", "member-draft", "archive", "unknown"])
      expect((await call(env, "GET", `/api/labels/${name}/pages`, { as: owner })).body).toEqual([]);
    // The owner still sees the labels of their own draft on the draft itself.
    expect(await labelsOf(owner, ownerDraft.body.id)).toEqual(["guide", "secret-plan"]);
  });

  test("a bad name in the path is 400 on name; anonymous callers see no labels", async () => {
    const { owner, page } = await setup();
    await add(owner, page.id, "guide");
    expect(await call(env, "GET", "/api/labels/two%20words/pages", { as: owner })).toMatchObject({ status: 400, body: { field: "name" } });
    expect((await call(env, "GET", "/api/labels")).body).toEqual([]);
    expect((await call(env, "GET", "/api/labels/guide/pages")).body).toEqual([]);
    expect((await call(env, "GET", `/api/pages/${page.id}/labels`)).status).toBe(404);
  });

  test("a read-only token may read", async () => {
    const { owner, page } = await setup();
    await add(owner, page.id, "guide");
    const ro = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect(await counts({ token: ro })).toEqual({ guide: 1 });
    expect(await labelsOf({ token: ro }, page.id)).toEqual(["guide"]);
  });
});

describe("labels and the page's life", () => {
  test("purging a page removes its label links; deleting the space removes the rest", async () => {
    const { owner, space, page } = await setup();
    const keep = await newPage(env, owner, space.id, "Keep");
    await add(owner, page.id, "guide");
    await add(owner, keep.id, "guide");
    await call(env, "DELETE", `/api/pages/${page.id}`, { as: owner });
    expect((await call(env, "DELETE", `/api/pages/${page.id}/purge`, { as: owner })).status).toBe(204);
    expect(env.core.sqlite.query("SELECT page_id FROM page_labels").all()).toEqual([{ page_id: keep.id }]);
    const del = await call(env, "DELETE", "/api/spaces/DOCS", {
      as: owner,
      body: { confirmKey: "DOCS", password: "correct horse battery staple" },
    });
    expect(del.status).toBe(204);
    expect(linkCount()).toBe(0);
  });

  test("a copy carries its source's labels", async () => {
    const { owner, page } = await setup();
    await add(owner, page.id, "guide");
    await add(owner, page.id, "ops");
    const copy = await call(env, "POST", `/api/pages/${page.id}/copy`, { as: owner, body: {} });
    expect(copy.status).toBe(201);
    expect(await labelsOf(owner, copy.body.id)).toEqual(["guide", "ops"]);
    expect(await counts(owner)).toEqual({ guide: 2, ops: 2 });
  });
});
