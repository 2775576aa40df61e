import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, type TestEnv } from "../../tests/harness";
import { eventsOf, newPage, ownerMemberAndPage } from "../pages/testing";
import { mentionedIds } from "./mentions";
import { comment, commentRows, commentsOf } from "./testing";

let env: TestEnv;

/** Each test of the block starts from an instance of its own. */
function freshInstanceEach() {
  beforeEach(() => (env = makeEnv()));
  afterEach(() => env.close());
}

const setup = () => ownerMemberAndPage(env);

const post = (who: object, pageId: string, body: unknown) => call(env, "POST", `/api/pages/${pageId}/comments`, { as: who, body });

describe("POST /api/pages/{id}/comments", () => {
  freshInstanceEach();

  test("a whole-page comment: 201 with the Comment shape and comment.created", async () => {
    const { member, page, space } = await setup();
    const res = await post(member, page.id, { body: "  Looks good.\r\nShip it.  " });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      pageId: page.id,
      parentCommentId: null,
      body: "Looks good.\nShip it.",
      anchorJson: null,
      authorId: member.id,
      authorName: "member",
      createdAt: expect.any(String),
      updatedAt: res.body.createdAt,
      resolvedAt: null,
      resolvedById: null,
      isDeleted: false,
    });
    const events = eventsOf(env, "comment.created");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      targetType: "comment",
      targetId: res.body.id,
      spaceId: space.id,
      actorId: member.id,
      data: { pageId: page.id, parentCommentId: null, inline: false, mentionedUserIds: [] },
    });
  });

  test("an inline comment keeps anchorJson exactly as sent", async () => {
    const { owner, page } = await setup();
    const anchor = '{ "from": 3, "to": 9,  "quote": "passage", "nested": {"a": [1, 2]} }';
    const res = await post(owner, page.id, { body: "Why?", anchorJson: anchor });
    expect(res.body.anchorJson).toBe(anchor);
    expect((await commentsOf(env, owner, page.id))[0].anchorJson).toBe(anchor);
    expect(eventsOf(env, "comment.created")[0].data).toMatchObject({ inline: true });
  });

  test("mentions of existing accounts are recorded with the event; other @-text is just text", async () => {
    const { owner, member, page } = await setup();
    await post(owner, page.id, { body: `@[Member](${member.id}) and @[Ghost](0190-nobody), @member, again @[M](${member.id})` });
    expect(eventsOf(env, "comment.created")[0].data.mentionedUserIds).toEqual([member.id]);
  });

  test("tabs and line feeds are fine in a body; a lone CR is a line break", async () => {
    const { owner, page } = await setup();
    expect((await post(owner, page.id, { body: "one\r\ttwo\nthree" })).body.body).toBe("one\n\ttwo\nthree");
  });

  test("10,000 characters are fine, counted as characters (an emoji is one)", async () => {
    const { owner, page } = await setup();
    expect((await post(owner, page.id, { body: "x".repeat(10_000) })).status).toBe(201);
    expect((await post(owner, page.id, { body: "😀".repeat(10_000) })).status).toBe(201);
  });

  test("needs View and a writing caller: anonymous 401, read-only token 403, unseen page 404, trash 409, archived 403", async () => {
    const { owner, member, space, page } = await setup();
    expect((await post({}, page.id, { body: "x" })).status).toBe(401);
    const ro = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect((await post({ token: ro }, page.id, { body: "x" })).body.code).toBe("read_only_token");
    const draft = await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } });
    const hidden = await post(member, draft.body.id, { body: "x" });
    expect(hidden.status).toBe(404);
    expect(hidden.text).toBe((await post(member, "0190-missing", { body: "x" })).text);
    const trashed = await newPage(env, owner, space.id, "Old");
    await call(env, "DELETE", `/api/pages/${trashed.id}`, { as: owner });
    expect((await post(owner, trashed.id, { body: "x" })).status).toBe(409);
    await call(env, "POST", "/api/spaces/DOCS/archive", { as: owner });
    expect((await post(owner, page.id, { body: "x" })).status).toBe(403);
    expect(commentRows(env)).toBe(0);
  });

  test("its creator may comment on a draft; nothing is announced", async () => {
    const { owner, space } = await setup();
    const draft = await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } });
    expect((await post(owner, draft.body.id, { body: "note to self" })).status).toBe(201);
    expect(eventsOf(env, "comment.created")).toHaveLength(0);
  });
});

describe("POST /api/pages/{id}/comments refuses", () => {
  // A refusal stores and announces nothing (each case checks both after it), so the 18 cases
  // share one instance and page: making them for each was most of their time.
  let world: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    env = makeEnv();
    world = await setup();
  });
  afterAll(() => env.close());

  test.each([
    ["a blank body", { body: "   \n " }, "body"],
    ["a body of 10,001 characters", { body: "x".repeat(10_001) }, "body"],
    ["a body over the schema limit", { body: "x".repeat(100_001) }, "body"],
    ["a body that is not text", { body: ["x"] }, "body"],
    ["no body", {}, "body"],
    ["a control character", { body: "bell\u0007" }, "body"],
    ["ESC", { body: "\u001B]0;title\u0007" }, "body"],
    ["a C1 control", { body: "csi\u009B2J" }, "body"],
    ["a right-to-left override", { body: "txt.\u202Eexe" }, "body"],
    ["an isolate", { body: "a\u2067b" }, "body"],
    ["a lone surrogate", { body: "half \uDE00" }, "body"],
    ["anchorJson that is not JSON", { body: "x", anchorJson: "{from: 1" }, "anchorJson"],
    ["anchorJson that is an array", { body: "x", anchorJson: "[1, 2]" }, "anchorJson"],
    ["anchorJson that is JSON null", { body: "x", anchorJson: "null" }, "anchorJson"],
    ["anchorJson that is a bare string", { body: "x", anchorJson: '"quote"' }, "anchorJson"],
    ["anchorJson that is an object, not text", { body: "x", anchorJson: { from: 1 } }, "anchorJson"],
    ["anchorJson over 10,000 bytes", { body: "x", anchorJson: JSON.stringify({ quote: "é".repeat(5_000) }) }, "anchorJson"],
    ["an empty anchorJson", { body: "x", anchorJson: "" }, "anchorJson"],
  ])("refuses %s: 400 on the field, nothing stored", async (_why, body, field) => {
    const { owner, page } = world;
    const res = await post(owner, page.id, body);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(commentRows(env)).toBe(0);
    expect(eventsOf(env, "comment.created")).toHaveLength(0);
  });
});

describe("GET /api/pages/{id}/comments", () => {
  freshInstanceEach();

  test("anonymous callers and those who cannot see the page get 404; a read-only token reads", async () => {
    const { owner, member, space, page } = await setup();
    await post(owner, page.id, { body: "x" });
    expect((await call(env, "GET", `/api/pages/${page.id}/comments`)).status).toBe(404);
    const draft = await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } });
    await post(owner, draft.body.id, { body: "private" });
    expect((await call(env, "GET", `/api/pages/${draft.body.id}/comments`, { as: member })).status).toBe(404);
    const ro = await mintToken(env, member, { name: "ro", readOnly: true });
    expect((await commentsOf(env, { token: ro }, page.id)).map((c) => c.body)).toEqual(["x"]);
  });

  test("a trashed page's comments stay readable", async () => {
    const { owner, page } = await setup();
    await post(owner, page.id, { body: "x" });
    await call(env, "DELETE", `/api/pages/${page.id}`, { as: owner });
    expect((await commentsOf(env, owner, page.id)).map((c) => c.body)).toEqual(["x"]);
  });
});

describe("comments and the page's life", () => {
  freshInstanceEach();

  test("purging a page removes its comments; deleting the space removes the rest", async () => {
    const { owner, space, page } = await setup();
    const keep = await newPage(env, owner, space.id, "Keep");
    const thread = await comment(env, owner, page.id, { body: "thread" });
    await comment(env, owner, page.id, { body: "reply", parentCommentId: thread.id });
    await comment(env, owner, keep.id, { body: "stays" });
    await call(env, "DELETE", `/api/pages/${page.id}`, { as: owner });
    expect((await call(env, "DELETE", `/api/pages/${page.id}/purge`, { as: owner })).status).toBe(204);
    expect(env.core.sqlite.query("SELECT body FROM comments").all()).toEqual([{ body: "stays" }]);
    const del = await call(env, "DELETE", "/api/spaces/DOCS", {
      as: owner,
      body: { confirmKey: "DOCS", password: "correct horse battery staple" },
    });
    expect(del.status).toBe(204);
    expect(commentRows(env)).toBe(0);
  });

  test("a copy does not carry the comments", async () => {
    const { owner, page } = await setup();
    await post(owner, page.id, { body: "x" });
    const copy = await call(env, "POST", `/api/pages/${page.id}/copy`, { as: owner, body: {} });
    expect(await commentsOf(env, owner, copy.body.id)).toEqual([]);
  });
});

describe("mentionedIds", () => {
  test("finds @[Name](id) mentions once each, in order, and nothing else", () => {
    expect(mentionedIds("hi @[Ann Lee](u-1), @[Bob](u-2) and @[Ann](u-1)")).toEqual(["u-1", "u-2"]);
    expect(mentionedIds("@ann @[](u-1) @[Ann](bad id) [Ann](u-1) @[A\nB](u-3)")).toEqual([]);
  });
});
