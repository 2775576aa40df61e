import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, PASSWORD, signUp, type TestEnv } from "../../tests/harness";
import { EMPTY_DOCUMENT_JSON } from "../content/schema";
import { doc, eventsOf, newPage, newSpace } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

async function setup() {
  const owner = await signUp(env, "owner@example.com");
  const space = await newSpace(env, owner, "DOCS");
  return { owner, space };
}

describe("POST /api/pages", () => {
  test("creates a published page at the top level, with version 1 and page.created", async () => {
    const { owner, space } = await setup();
    const res = await call(env, "POST", "/api/pages", {
      as: owner,
      body: { spaceId: space.id, title: "  Welcome ", contentJson: doc("Hello") },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      spaceId: space.id,
      parentPageId: null,
      title: "Welcome",
      contentJson: doc("Hello"),
      currentVersionNumber: 1,
      position: 0,
      status: 1,
      emoji: null,
      fullWidth: false,
      createdById: owner.id,
      deletedAt: null,
      canEdit: true,
    });
    expect(eventsOf(env, "page.created").map((e) => e.targetId)).toEqual([res.body.id]);
    const plain = env.core.sqlite.query("SELECT plain_text FROM pages WHERE id = ?").get(res.body.id) as { plain_text: string };
    expect(plain.plain_text).toBe("Hello");
  });

  test("without contentJson stores an empty document; siblings are placed last", async () => {
    const { owner, space } = await setup();
    const a = await newPage(env, owner, space.id, "A");
    const b = await newPage(env, owner, space.id, "B");
    expect(a.position).toBe(0);
    expect(b.position).toBe(1);
    expect((await call(env, "GET", `/api/pages/${a.id}`, { as: owner })).body.contentJson).toBe(EMPTY_DOCUMENT_JSON);
  });

  test("a new page goes after the last published sibling not in the trash (one in the trash after it does not count)", async () => {
    const { owner, space } = await setup();
    const parent = await newPage(env, owner, space.id, "Parent");
    const a = await newPage(env, owner, space.id, "A", { parentPageId: parent.id });
    const b = await newPage(env, owner, space.id, "B", { parentPageId: parent.id });
    const c = await newPage(env, owner, space.id, "C", { parentPageId: parent.id });
    expect([a.position, b.position, c.position]).toEqual([0, 1, 2]);
    expect((await call(env, "DELETE", `/api/pages/${c.id}`, { as: owner })).status).toBe(204);
    expect((await newPage(env, owner, space.id, "D", { parentPageId: parent.id })).position).toBe(2);
    expect((await newPage(env, owner, space.id, "Top")).position).toBe(1);
  });

  test("creates under a parent of the same space", async () => {
    const { owner, space } = await setup();
    const parent = await newPage(env, owner, space.id, "Parent");
    const child = await newPage(env, owner, space.id, "Child", { parentPageId: parent.id });
    expect(child).toMatchObject({ parentPageId: parent.id, position: 0 });
  });

  test.each([
    ["a blank title", { title: "   " }, "title"],
    ["a 256-character title", { title: "x".repeat(256) }, "title"],
    ["contentJson that is not JSON", { title: "T", contentJson: "{nope" }, "contentJson"],
    [
      "contentJson with an unknown node",
      { title: "T", contentJson: JSON.stringify({ type: "doc", content: [{ type: "marquee" }] }) },
      "contentJson",
    ],
    ["contentJson that is an object, not text", { title: "T", contentJson: { type: "doc" } }, "contentJson"],
    ["no spaceId", { spaceId: undefined, title: "T" }, "spaceId"],
  ])("refuses %s (400 on the field) and stores nothing", async (_why, body, field) => {
    const { owner, space } = await setup();
    const res = await call(env, "POST", "/api/pages", { as: owner, body: { spaceId: space.id, ...body } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(eventsOf(env, "page.created")).toHaveLength(0);
  });

  test("a 255-character title is fine", async () => {
    const { owner, space } = await setup();
    expect((await newPage(env, owner, space.id, "x".repeat(255))).title).toHaveLength(255);
  });

  test("a parent from another space is 400 on parentPageId; an unknown parent or space is 404", async () => {
    const { owner, space } = await setup();
    const other = await newSpace(env, owner, "OTHER");
    const foreign = await newPage(env, owner, other.id, "Foreign");
    const cross = await call(env, "POST", "/api/pages", { as: owner, body: { spaceId: space.id, title: "T", parentPageId: foreign.id } });
    expect(cross).toMatchObject({ status: 400, body: { field: "parentPageId" } });
    expect(
      (await call(env, "POST", "/api/pages", { as: owner, body: { spaceId: space.id, title: "T", parentPageId: "0190-missing" } })).status,
    ).toBe(404);
    expect((await call(env, "POST", "/api/pages", { as: owner, body: { spaceId: "0190-missing", title: "T" } })).status).toBe(404);
  });

  test("anonymous is 401, a read-only token 403 read_only_token, an archived space 403", async () => {
    const { owner, space } = await setup();
    expect((await call(env, "POST", "/api/pages", { body: { spaceId: space.id, title: "T" } })).status).toBe(401);
    const ro = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect((await call(env, "POST", "/api/pages", { as: { token: ro }, body: { spaceId: space.id, title: "T" } })).body.code).toBe(
      "read_only_token",
    );
    await call(env, "POST", "/api/spaces/DOCS/archive", { as: owner });
    const archived = await call(env, "POST", "/api/pages", { as: owner, body: { spaceId: space.id, title: "T" } });
    expect(archived).toMatchObject({ status: 403, body: { code: "forbidden", title: "This space is archived" } });
  });
});

describe("GET /api/pages/{id}", () => {
  test("answers anonymous callers 404, byte for byte like a missing page", async () => {
    const { owner, space } = await setup();
    const page = await newPage(env, owner, space.id, "Secret");
    const hidden = await call(env, "GET", `/api/pages/${page.id}`);
    const missing = await call(env, "GET", "/api/pages/0190-missing");
    expect(hidden.status).toBe(404);
    expect(hidden.text).toBe(missing.text);
  });

  test("canEdit is false for a read-only token and in an archived space; other members may edit", async () => {
    const { owner, member } = await ownerAndMember(env);
    const space = await newSpace(env, owner, "DOCS");
    const page = await newPage(env, owner, space.id, "P");
    expect((await call(env, "GET", `/api/pages/${page.id}`, { as: member })).body.canEdit).toBe(true);
    const ro = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect((await call(env, "GET", `/api/pages/${page.id}`, { as: { token: ro } })).body.canEdit).toBe(false);
    await call(env, "POST", "/api/spaces/DOCS/archive", { as: owner });
    expect((await call(env, "GET", `/api/pages/${page.id}`, { as: owner })).body.canEdit).toBe(false);
  });

  test("answers kept between requests follow every change and each caller's canEdit", async () => {
    const { owner, member } = await ownerAndMember(env);
    const space = await newSpace(env, owner, "DOCS");
    const page = await newPage(env, owner, space.id, "P", { contentJson: doc("first") });
    const ro = await mintToken(env, owner, { name: "ro", readOnly: true });
    for (let round = 0; round < 2; round++) {
      expect((await call(env, "GET", `/api/pages/${page.id}`, { as: owner })).body.canEdit).toBe(true);
      expect((await call(env, "GET", `/api/pages/${page.id}`, { as: { token: ro } })).body.canEdit).toBe(false);
    }
    await call(env, "PUT", `/api/pages/${page.id}`, { as: member, body: { contentJson: doc("second") } });
    const after = (await call(env, "GET", `/api/pages/${page.id}`, { as: owner })).body;
    expect([after.contentJson, after.currentVersionNumber]).toEqual([doc("second"), 2]);
    // A grant taken away shows at once: the member no longer sees the page at all.
    await call(env, "DELETE", "/api/spaces/DOCS/permissions", { as: owner, body: { password: PASSWORD } });
    expect((await call(env, "GET", `/api/pages/${page.id}`, { as: member })).status).toBe(404);
  });
});

describe("PUT /api/pages/{id}", () => {
  test("each update adds version N+1 with its comment and records page.updated", async () => {
    const { owner, space } = await setup();
    const page = await newPage(env, owner, space.id, "P", { contentJson: doc("one") });
    const res = await call(env, "PUT", `/api/pages/${page.id}`, {
      as: owner,
      body: { title: "P", contentJson: doc("two"), changeComment: "Fix typo", baseVersion: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ currentVersionNumber: 2, contentJson: doc("two") });
    const versions = await call(env, "GET", `/api/pages/${page.id}/versions`, { as: owner });
    expect(versions.body[0]).toMatchObject({ versionNumber: 2, changeComment: "Fix typo", authorId: owner.id, authorName: "owner" });
    expect(eventsOf(env, "page.updated")).toHaveLength(1);
  });

  // The 409 version_conflict has its own file: conflict.test.ts.

  test("without baseVersion the update is applied whatever the version", async () => {
    const { owner, space } = await setup();
    const page = await newPage(env, owner, space.id, "P");
    await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { title: "Q" } });
    expect((await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { title: "R" } })).body.currentVersionNumber).toBe(3);
  });

  test("without contentJson renames only: the content is kept and a version is added", async () => {
    const { owner, space } = await setup();
    const page = await newPage(env, owner, space.id, "Old", { contentJson: doc("body") });
    const res = await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { title: "New" } });
    expect(res.body).toMatchObject({ title: "New", contentJson: doc("body"), currentVersionNumber: 2 });
    const v2 = await call(env, "GET", `/api/pages/${page.id}/versions/2`, { as: owner });
    expect(v2.body).toMatchObject({ title: "New", contentJson: doc("body") });
  });

  test.each([
    ["an invalid document", { contentJson: JSON.stringify({ type: "doc", content: [{ type: "text", text: "bare" }] }) }, "contentJson"],
    ["a blank title", { title: " " }, "title"],
    ["neither title nor contentJson", { changeComment: "nothing" }, "title"],
    ["a baseVersion of 0", { title: "X", baseVersion: 0 }, "baseVersion"],
  ])("refuses %s (400 on the field) and keeps the page as it was", async (_why, body, field) => {
    const { owner, space } = await setup();
    const page = await newPage(env, owner, space.id, "P", { contentJson: doc("one") });
    const res = await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body });
    expect(res).toMatchObject({ status: 400, body: { field } });
    const now = await call(env, "GET", `/api/pages/${page.id}`, { as: owner });
    expect(now.body).toMatchObject({ title: "P", contentJson: doc("one"), currentVersionNumber: 1 });
  });

  test("an archived space refuses updates (403) and a read-only token gets read_only_token", async () => {
    const { owner, space } = await setup();
    const page = await newPage(env, owner, space.id, "P");
    const ro = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect((await call(env, "PUT", `/api/pages/${page.id}`, { as: { token: ro }, body: { title: "X" } })).body.code).toBe(
      "read_only_token",
    );
    await call(env, "POST", "/api/spaces/DOCS/archive", { as: owner });
    expect((await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { title: "X" } })).body.title).toBe(
      "This space is archived",
    );
  });
});

describe("PUT /emoji and /layout", () => {
  test.each(["📘", "👍🏽", "🇫🇷", "👩‍💻", "1️⃣", "❤️"])("accepts %s", async (emoji) => {
    const { owner, space } = await setup();
    const page = await newPage(env, owner, space.id, "P");
    const res = await call(env, "PUT", `/api/pages/${page.id}/emoji`, { as: owner, body: { emoji } });
    expect(res).toMatchObject({ status: 200, body: { emoji, currentVersionNumber: 1 } });
  });

  test.each(["a", "📘📘", "1", "📘 ok", ":smile:"])("refuses %p (400 on emoji)", async (emoji) => {
    const { owner, space } = await setup();
    const page = await newPage(env, owner, space.id, "P");
    expect((await call(env, "PUT", `/api/pages/${page.id}/emoji`, { as: owner, body: { emoji } })).body.field).toBe("emoji");
  });

  test("null removes the emoji; layout switches fullWidth; both record page.updated", async () => {
    const { owner, space } = await setup();
    const page = await newPage(env, owner, space.id, "P");
    await call(env, "PUT", `/api/pages/${page.id}/emoji`, { as: owner, body: { emoji: "📘" } });
    expect((await call(env, "PUT", `/api/pages/${page.id}/emoji`, { as: owner, body: { emoji: null } })).body.emoji).toBeNull();
    expect((await call(env, "PUT", `/api/pages/${page.id}/layout`, { as: owner, body: { fullWidth: true } })).body.fullWidth).toBe(true);
    expect((await call(env, "PUT", `/api/pages/${page.id}/layout`, { as: owner, body: {} })).status).toBe(400);
    expect(eventsOf(env, "page.updated")).toHaveLength(3);
  });
});
