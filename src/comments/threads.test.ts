import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { GROUP_ID } from "../identity/builtin-groups";
import { eventsOf, newPage, newSpace, ownerMemberAndPage } from "../pages/testing";
import { comment, commentRows, commentsOf, invited } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const setup = () => ownerMemberAndPage(env);

describe("threads", () => {
  test("the list gives threads in creation order, each followed by its replies", async () => {
    const { owner, member, page } = await setup();
    const t1 = await comment(env, owner, page.id, { body: "t1", anchorJson: '{"quote":"a"}' });
    env.clock.advance(1000);
    const t2 = await comment(env, member, page.id, { body: "t2" });
    env.clock.advance(1000);
    const r1 = await comment(env, member, page.id, { body: "r1", parentCommentId: t1.id });
    env.clock.advance(1000);
    await comment(env, owner, page.id, { body: "r2", parentCommentId: t2.id });
    await comment(env, owner, page.id, { body: "r3", parentCommentId: t1.id });
    const list = await commentsOf(env, owner, page.id);
    expect(list.map((c) => c.body)).toEqual(["t1", "r1", "r3", "t2", "r2"]);
    expect(list[1]).toMatchObject({ id: r1.id, parentCommentId: t1.id, anchorJson: null, authorName: "member" });
    expect(eventsOf(env, "comment.created").at(-1)!.data).toMatchObject({ parentCommentId: t1.id });
  });

  test("parentCommentId must be a top-level comment of the same page: 400 on the field otherwise", async () => {
    const { owner, space, page } = await setup();
    const other = await newPage(env, owner, space.id, "Other");
    const thread = await comment(env, owner, page.id, { body: "t" });
    const reply = await comment(env, owner, page.id, { body: "r", parentCommentId: thread.id });
    const elsewhere = await comment(env, owner, other.id, { body: "elsewhere" });
    const before = commentRows(env);
    for (const parentCommentId of [reply.id, elsewhere.id, "0190-missing"]) {
      const res = await call(env, "POST", `/api/pages/${page.id}/comments`, { as: owner, body: { body: "x", parentCommentId } });
      expect(res).toMatchObject({ status: 400, body: { field: "parentCommentId" } });
    }
    const anchored = await call(env, "POST", `/api/pages/${page.id}/comments`, {
      as: owner,
      body: { body: "x", parentCommentId: thread.id, anchorJson: "{}" },
    });
    expect(anchored).toMatchObject({ status: 400, body: { field: "anchorJson" } });
    expect(commentRows(env)).toBe(before);
  });
});

describe("PUT /api/comments/{id}", () => {
  test("its author edits the body (updatedAt moves); anyone else gets 403; bad bodies 400", async () => {
    const { owner, member, page } = await setup();
    const c = await comment(env, member, page.id, { body: "frist" });
    env.clock.advance(60_000);
    const res = await call(env, "PUT", `/api/comments/${c.id}`, { as: member, body: { body: "first" } });
    expect(res.status).toBe(200);
    expect(res.body.body).toBe("first");
    expect(res.body.updatedAt > res.body.createdAt).toBe(true);
    expect((await call(env, "PUT", `/api/comments/${c.id}`, { as: owner, body: { body: "hijack" } })).status).toBe(403);
    for (const body of ["  ", "y".repeat(10_001)])
      expect(await call(env, "PUT", `/api/comments/${c.id}`, { as: member, body: { body } })).toMatchObject({
        status: 400,
        body: { field: "body" },
      });
    expect((await commentsOf(env, owner, page.id))[0].body).toBe("first");
  });

  test("a comment on a page the caller cannot see is 404; a read-only token 403; anonymous 401", async () => {
    const { owner, member, space } = await setup();
    const draft = await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } });
    const c = await comment(env, owner, draft.body.id, { body: "private" });
    const hidden = await call(env, "PUT", `/api/comments/${c.id}`, { as: member, body: { body: "x" } });
    expect(hidden.status).toBe(404);
    expect(hidden.text).toBe((await call(env, "PUT", "/api/comments/0190-missing", { as: member, body: { body: "x" } })).text);
    const ro = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect((await call(env, "PUT", `/api/comments/${c.id}`, { as: { token: ro }, body: { body: "x" } })).status).toBe(403);
    expect((await call(env, "PUT", `/api/comments/${c.id}`, { body: { body: "x" } })).status).toBe(401);
    for (const action of ["resolve", "reopen"])
      expect((await call(env, "POST", `/api/comments/${c.id}/${action}`, { as: member })).status).toBe(404);
    expect((await call(env, "DELETE", `/api/comments/${c.id}`, { as: member })).status).toBe(404);
    expect(commentRows(env)).toBe(1);
  });
});

describe("DELETE /api/comments/{id}", () => {
  test("its author deletes a comment without replies: the row goes", async () => {
    const { member, page } = await setup();
    const c = await comment(env, member, page.id, { body: "oops" });
    expect((await call(env, "DELETE", `/api/comments/${c.id}`, { as: member })).status).toBe(204);
    expect(commentRows(env)).toBe(0);
  });

  test("one with replies stays as a deleted placeholder; the last reply's deletion takes it away", async () => {
    const { owner, member, page } = await setup();
    const thread = await comment(env, member, page.id, { body: "question", anchorJson: '{"quote":"x"}' });
    const reply = await comment(env, owner, page.id, { body: "answer", parentCommentId: thread.id });
    expect((await call(env, "DELETE", `/api/comments/${thread.id}`, { as: member })).status).toBe(204);
    const list = await commentsOf(env, owner, page.id);
    expect(list[0]).toMatchObject({
      id: thread.id,
      body: "",
      authorId: null,
      authorName: null,
      isDeleted: true,
      anchorJson: '{"quote":"x"}',
    });
    expect(list[1]).toMatchObject({ id: reply.id, body: "answer", isDeleted: false });
    expect((await call(env, "PUT", `/api/comments/${thread.id}`, { as: member, body: { body: "back" } })).status).toBe(409);
    expect((await call(env, "DELETE", `/api/comments/${reply.id}`, { as: owner })).status).toBe(204);
    expect(await commentsOf(env, owner, page.id)).toEqual([]);
    expect(commentRows(env)).toBe(0);
  });

  test("an administrator of the space may delete others' comments; other members may not", async () => {
    const { owner, member } = await ownerAndMember(env);
    const third = await invited(env, owner, "third@example.com");
    // The member created the space, so administers it without holding spaces.manage.
    const space = await newSpace(env, member, "TEAM");
    const page = await newPage(env, member, space.id, "Plan");
    const byOwner = await comment(env, owner, page.id, { body: "by the owner" });
    const byThird = await comment(env, third, page.id, { body: "by the third" });
    expect((await call(env, "DELETE", `/api/comments/${byOwner.id}`, { as: third })).status).toBe(403);
    expect((await call(env, "DELETE", `/api/comments/${byThird.id}`, { as: member })).status).toBe(204);
    expect((await call(env, "DELETE", `/api/comments/${byOwner.id}`, { as: member })).status).toBe(204);
    expect(commentRows(env)).toBe(0);
  });

  test("a read-only token is 403; an archived space 403", async () => {
    const { owner, page } = await setup();
    const c = await comment(env, owner, page.id, { body: "x" });
    const ro = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect((await call(env, "DELETE", `/api/comments/${c.id}`, { as: { token: ro } })).body.code).toBe("read_only_token");
    await call(env, "POST", "/api/spaces/DOCS/archive", { as: owner });
    expect((await call(env, "DELETE", `/api/comments/${c.id}`, { as: owner })).status).toBe(403);
    expect(commentRows(env)).toBe(1);
  });
});

describe("resolve and reopen", () => {
  test("resolving records who and when (once) with comment.resolved; reopening clears them", async () => {
    const { owner, member, page, space } = await setup();
    const thread = await comment(env, owner, page.id, { body: "t" });
    env.clock.advance(3_600_000);
    const when = new Date(env.clock.now()).toISOString();
    const res = await call(env, "POST", `/api/comments/${thread.id}/resolve`, { as: member });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: thread.id, resolvedAt: when, resolvedById: member.id });
    env.clock.advance(1000);
    const again = await call(env, "POST", `/api/comments/${thread.id}/resolve`, { as: owner });
    expect(again.body).toMatchObject({ resolvedAt: when, resolvedById: member.id });
    expect(eventsOf(env, "comment.resolved")).toHaveLength(1);
    expect(eventsOf(env, "comment.resolved")[0]).toMatchObject({
      targetType: "comment",
      targetId: thread.id,
      spaceId: space.id,
      actorId: member.id,
      data: { pageId: page.id },
    });
    const reopened = await call(env, "POST", `/api/comments/${thread.id}/reopen`, { as: owner });
    expect(reopened.body).toMatchObject({ resolvedAt: null, resolvedById: null });
    expect((await call(env, "POST", `/api/comments/${thread.id}/reopen`, { as: owner })).status).toBe(200);
    expect((await commentsOf(env, owner, page.id))[0].resolvedAt).toBeNull();
  });

  test("need Edit on the page or authorship of the thread: a View-only reader resolves and reopens only their own threads", async () => {
    const { owner, member, page } = await setup();
    const editor = await invited(env, owner, "editor@example.com");
    // Everyone drops to View; the editor keeps Edit through a grant of their own.
    await call(env, "POST", "/api/spaces/DOCS/permissions", {
      as: owner,
      body: { principalType: 1, principalId: GROUP_ID.everyone, operation: 0 },
    });
    await call(env, "POST", "/api/spaces/DOCS/permissions", {
      as: owner,
      body: { principalType: 0, principalId: editor.id, operation: 1 },
    });
    const theirs = await comment(env, owner, page.id, { body: "owner's question" });
    const own = await comment(env, member, page.id, { body: "member's question" });
    const act = (who: Who, action: string, id: string) => call(env, "POST", `/api/comments/${id}/${action}`, { as: who });

    expect(await act(member, "resolve", theirs.id)).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect((await act(editor, "resolve", theirs.id)).status).toBe(200);
    expect((await act(member, "reopen", theirs.id)).status).toBe(403);
    expect((await commentsOf(env, owner, page.id)).find((c) => c.id === theirs.id)!.resolvedById).toBe(editor.id);
    expect((await act(member, "resolve", own.id)).body).toMatchObject({ resolvedById: member.id });
    expect((await act(member, "reopen", own.id)).body).toMatchObject({ resolvedAt: null });
    expect(eventsOf(env, "comment.resolved").map((e) => e.actorId)).toEqual([editor.id, member.id]);
  });

  test("an Edit restriction on the page counts: an editor of the space it leaves out may not resolve others' threads", async () => {
    const { owner, member, page } = await setup();
    await call(env, "POST", `/api/pages/${page.id}/restrictions`, {
      as: owner,
      body: { principalType: 0, principalId: owner.id, operation: 1 },
    });
    const thread = await comment(env, owner, page.id, { body: "t" });
    expect((await call(env, "POST", `/api/comments/${thread.id}/resolve`, { as: member })).status).toBe(403);
    expect((await call(env, "POST", `/api/comments/${thread.id}/resolve`, { as: owner })).status).toBe(200);
  });

  test("replies cannot be resolved or reopened on their own (400 on id); a read-only token 403", async () => {
    const { owner, page } = await setup();
    const thread = await comment(env, owner, page.id, { body: "t" });
    const reply = await comment(env, owner, page.id, { body: "r", parentCommentId: thread.id });
    for (const action of ["resolve", "reopen"]) {
      expect(await call(env, "POST", `/api/comments/${reply.id}/${action}`, { as: owner })).toMatchObject({
        status: 400,
        body: { field: "id" },
      });
    }
    const ro = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect((await call(env, "POST", `/api/comments/${thread.id}/resolve`, { as: { token: ro } })).status).toBe(403);
    expect((await commentsOf(env, owner, page.id)).map((c) => c.resolvedAt)).toEqual([null, null]);
  });
});
