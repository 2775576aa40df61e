import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { invited } from "../comments/testing";
import { doc, newPage, newSpace } from "../pages/testing";
import { newWebhook } from "../webhooks/testing";
import { runDueDeliveries } from "../webhooks/sender";
import { actionsOf, docMentioning, inbox, watch } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

/** owner (creates DOCS), member and carol; all three may read and edit DOCS. */
async function setup() {
  const { owner, member } = await ownerAndMember(env);
  const carol = await invited(env, owner, "carol@example.com");
  const space = await newSpace(env, owner, "DOCS", "Docs");
  return { owner, member, carol, space };
}

const edit = (who: Who, pageId: string, body: Record<string, unknown>) =>
  call(env, "PUT", `/api/pages/${pageId}`, { as: who, body: { title: "Guide", ...body } });
const post = (who: Who, pageId: string, body: Record<string, unknown>) =>
  call(env, "POST", `/api/pages/${pageId}/comments`, { as: who, body });
const rowCount = () => (env.core.sqlite.query("SELECT count(*) AS n FROM notifications").get() as { n: number }).n;

describe("a page created", () => {
  test("through the API tells the space's watchers (not its author, not those who do not watch)", async () => {
    const { owner, member, carol, space } = await setup();
    await watch(env, member, "/api/spaces/DOCS");
    await watch(env, carol, "/api/spaces/DOCS");
    const page = await newPage(env, member, space.id, "Release notes");
    expect(await inbox(env, member)).toEqual([]);
    expect(await inbox(env, owner)).toEqual([]);
    const [n] = await inbox(env, carol);
    expect(n).toEqual({
      id: expect.any(String),
      action: "page.created",
      targetType: "page",
      targetId: page.id,
      spaceId: space.id,
      pageId: page.id,
      actorId: member.id,
      actorName: "member",
      details: { pageTitle: "Release notes", spaceKey: "DOCS", spaceName: "Docs" },
      createdAt: expect.any(String),
      readAt: null,
    });
  });

  test("by publishing a draft tells the watchers once; the draft and its autosaves told nobody", async () => {
    const { owner, carol, space } = await setup();
    await watch(env, carol, "/api/spaces/DOCS");
    const draft = (await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } })).body;
    expect((await edit(owner, draft.id, { title: "Plan", contentJson: doc("first words") })).status).toBe(200);
    expect(await inbox(env, carol)).toEqual([]);
    expect((await call(env, "POST", `/api/pages/${draft.id}/publish`, { as: owner, body: { title: "Plan" } })).status).toBe(200);
    expect(await inbox(env, carol)).toMatchObject([{ action: "page.created", targetId: draft.id, details: { pageTitle: "Plan" } }]);
  });

  test("by copying tells the target space's watchers", async () => {
    const { owner, carol, space } = await setup();
    const source = await newPage(env, owner, space.id, "Template");
    await watch(env, carol, "/api/spaces/DOCS");
    const copy = await call(env, "POST", `/api/pages/${source.id}/copy`, { as: owner, body: {} });
    expect(copy.status).toBe(201);
    expect(await inbox(env, carol)).toMatchObject([{ action: "page.created", targetId: copy.body.id }]);
  });
});

describe("a page updated", () => {
  test("tells the page's watchers: its creator, those who edited it, those who watch it", async () => {
    const { owner, member, carol, space } = await setup();
    const page = await newPage(env, owner, space.id, "Guide");
    await watch(env, carol, `/api/pages/${page.id}`);
    expect((await edit(member, page.id, { contentJson: doc("v2") })).status).toBe(200);
    expect(await actionsOf(env, owner)).toEqual(["page.updated page"]);
    expect(await actionsOf(env, carol)).toEqual(["page.updated page"]);
    expect(await inbox(env, member)).toEqual([]);
    // member now watches it (an editor): owner's edit tells member, not owner.
    expect((await edit(owner, page.id, { contentJson: doc("v3") })).status).toBe(200);
    expect(await actionsOf(env, member)).toEqual(["page.updated page"]);
    expect((await inbox(env, member))[0]).toMatchObject({ actorId: owner.id, details: { pageTitle: "Guide", versionNumber: 3, edits: 1 } });
  });

  test("rapid edits coalesce into one unread entry (latest editor, count of edits); once read, the next edit is a new entry", async () => {
    const { owner, member, carol, space } = await setup();
    const page = await newPage(env, owner, space.id, "Guide");
    await edit(member, page.id, { contentJson: doc("a") });
    env.clock.advance(1000);
    await edit(member, page.id, { contentJson: doc("b") });
    env.clock.advance(1000);
    await edit(carol, page.id, { title: "Guide v2" });
    let listed = await inbox(env, owner);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      action: "page.updated",
      actorId: carol.id,
      actorName: "carol",
      details: { pageTitle: "Guide v2", versionNumber: 4, edits: 3 },
      createdAt: new Date(env.clock.now()).toISOString(),
    });
    expect((await call(env, "POST", `/api/notifications/${listed[0].id}/read`, { as: owner })).status).toBe(204);
    env.clock.advance(1000);
    await edit(member, page.id, { contentJson: doc("c") });
    listed = await inbox(env, owner);
    expect(listed.map((n) => [n.actorId, n.details.edits, n.readAt === null])).toEqual([
      [member.id, 1, true],
      [carol.id, 3, false],
    ]);
  });

  test("restoring a version tells the watchers; an emoji or layout change does not", async () => {
    const { owner, member, space } = await setup();
    const page = await newPage(env, owner, space.id, "Guide");
    expect((await call(env, "PUT", `/api/pages/${page.id}/emoji`, { as: member, body: { emoji: "📘" } })).status).toBe(200);
    expect((await call(env, "PUT", `/api/pages/${page.id}/layout`, { as: member, body: { fullWidth: true } })).status).toBe(200);
    expect(await inbox(env, owner)).toEqual([]);
    await edit(owner, page.id, { contentJson: doc("v2") });
    expect((await call(env, "POST", `/api/pages/${page.id}/versions/1/restore`, { as: member })).status).toBeLessThan(300);
    expect(await inbox(env, owner)).toMatchObject([{ action: "page.updated", actorId: member.id, details: { versionNumber: 3 } }]);
  });

  test("a refused update (stale baseVersion) tells nobody and watches nothing", async () => {
    const { owner, member, space } = await setup();
    const page = await newPage(env, owner, space.id, "Guide");
    expect((await edit(member, page.id, { contentJson: doc("x"), baseVersion: 7 })).status).toBe(409);
    expect(rowCount()).toBe(0);
    expect((await call(env, "GET", `/api/pages/${page.id}/watch`, { as: member })).body).toEqual({ watching: false, watcherCount: 1 });
  });
});

describe("a comment", () => {
  test("tells the page's watchers and everyone who wrote in the thread, never its author", async () => {
    const { owner, member, carol, space } = await setup();
    const page = await newPage(env, owner, space.id, "Guide");
    const top = (await post(member, page.id, { body: "Is this current?" })).body;
    expect(await inbox(env, owner)).toMatchObject([
      {
        action: "comment.created",
        targetType: "comment",
        targetId: top.id,
        pageId: page.id,
        actorId: member.id,
        details: { pageTitle: "Guide", commentId: top.id, threadId: top.id, reply: false, excerpt: "Is this current?" },
      },
    ]);
    expect(await inbox(env, member)).toEqual([]);

    const reply = (await post(carol, page.id, { body: "Yes, as of\n\ntoday.", parentCommentId: top.id })).body;
    expect((await inbox(env, owner))[0]).toMatchObject({
      action: "comment.created",
      targetId: reply.id,
      details: { reply: true, threadId: top.id, excerpt: "Yes, as of today." },
    });
    expect(await inbox(env, member)).toMatchObject([{ action: "comment.created", targetId: reply.id, actorId: carol.id }]);
    expect(await inbox(env, carol)).toEqual([]);

    // Participants are told whether or not they watch; someone outside the thread only by watching.
    await watch(env, owner, `/api/pages/${page.id}`, "DELETE");
    await post(member, page.id, { body: "Thanks", parentCommentId: top.id });
    expect(await actionsOf(env, carol)).toEqual(["comment.created comment"]);
    expect(await actionsOf(env, owner)).toEqual(["comment.created comment", "comment.created comment"]);
    await post(member, page.id, { body: "A new thread" });
    expect(await actionsOf(env, carol)).toEqual(["comment.created comment"]);
  });

  test("a mention tells the person mentioned once, as a mention (instead of the comment entry); self-mentions tell nobody", async () => {
    const { owner, member, carol, space } = await setup();
    const page = await newPage(env, owner, space.id, "Guide");
    const c = (await post(member, page.id, { body: `@[Owner](${owner.id}) and @[Carol](${carol.id}), says @[Me](${member.id})` })).body;
    const expected = {
      action: "mention",
      targetType: "comment",
      targetId: c.id,
      pageId: page.id,
      actorId: member.id,
      details: { excerpt: "@Owner and @Carol, says @Me" },
    };
    expect(await inbox(env, owner)).toMatchObject([expected]);
    expect(await inbox(env, carol)).toMatchObject([expected]);
    expect(await inbox(env, member)).toEqual([]);
  });

  test("editing a comment tells only the people it mentions for the first time, and nobody else", async () => {
    const { owner, member, carol, space } = await setup();
    const page = await newPage(env, owner, space.id, "Guide");
    await watch(env, carol, `/api/pages/${page.id}`);
    const c = (await post(member, page.id, { body: `Ping @[Owner](${owner.id})` })).body;
    expect(await actionsOf(env, owner)).toEqual(["mention comment"]);
    expect(await actionsOf(env, carol)).toEqual(["comment.created comment"]);
    const edited = await call(env, "PUT", `/api/comments/${c.id}`, {
      as: member,
      body: { body: `Ping @[Owner](${owner.id}) and @[Carol](${carol.id})` },
    });
    expect(edited.status).toBe(200);
    expect(await actionsOf(env, owner)).toEqual(["mention comment"]);
    expect(await inbox(env, carol)).toMatchObject([
      { action: "mention", targetType: "comment", targetId: c.id, actorId: member.id },
      { action: "comment.created" },
    ]);
    // An edit that mentions nobody new tells nobody.
    await call(env, "PUT", `/api/comments/${c.id}`, { as: member, body: { body: `Ping @[Carol](${carol.id})` } });
    expect(await actionsOf(env, carol)).toEqual(["mention comment", "comment.created comment"]);
    expect(await actionsOf(env, owner)).toEqual(["mention comment"]);
  });
});

describe("mentions in page content", () => {
  test("a new page tells everyone it mentions; an update tells only those it newly mentions", async () => {
    const { owner, member, carol, space } = await setup();
    const page = await newPage(env, owner, space.id, "Guide", {
      contentJson: docMentioning("please review", member.id, owner.id, "0190a6c8-0000-7000-8000-0000000000ff"),
    });
    expect(await inbox(env, member)).toMatchObject([
      { action: "mention", targetType: "page", targetId: page.id, pageId: page.id, actorId: owner.id, details: { pageTitle: "Guide" } },
    ]);
    expect(await inbox(env, owner)).toEqual([]);
    expect(await inbox(env, carol)).toEqual([]);

    expect((await edit(owner, page.id, { contentJson: docMentioning("please review", member.id, carol.id) })).status).toBe(200);
    expect(await actionsOf(env, member)).toEqual(["mention page"]);
    expect(await inbox(env, carol)).toMatchObject([{ action: "mention", targetId: page.id, details: { versionNumber: 2 } }]);
  });

  test("a watcher who is newly mentioned gets the mention, not also the update", async () => {
    const { owner, member, space } = await setup();
    const page = await newPage(env, owner, space.id, "Guide");
    await watch(env, member, `/api/pages/${page.id}`);
    await edit(owner, page.id, { contentJson: docMentioning("over to you", member.id) });
    expect(await actionsOf(env, member)).toEqual(["mention page"]);
  });

  test("someone mentioned in a draft is told when it is published, not before", async () => {
    const { owner, member, space } = await setup();
    const draft = (await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } })).body;
    await edit(owner, draft.id, { contentJson: docMentioning("draft", member.id) });
    expect(await inbox(env, member)).toEqual([]);
    await call(env, "POST", `/api/pages/${draft.id}/publish`, { as: owner, body: { title: "Plan" } });
    expect(await inbox(env, member)).toMatchObject([{ action: "mention", targetId: draft.id, details: { pageTitle: "Plan" } }]);
  });
});

describe("a webhook switched off", () => {
  test("tells the space's administrators, not its other readers (even those watching the space)", async () => {
    const { owner, member, space } = await setup();
    await watch(env, member, "/api/spaces/DOCS");
    const hook = await newWebhook(env, owner, "DOCS", "http://127.0.0.1:9/", "space.updated");
    for (let i = 0; i < 5; i++) await call(env, "PUT", "/api/spaces/DOCS", { as: owner, body: { name: `Docs ${i}` } });
    for (let round = 0; round < 4; round++) {
      await runDueDeliveries(env.core);
      env.clock.advance(3_600_000);
    }
    expect((await call(env, "GET", "/api/spaces/DOCS/webhooks", { as: owner })).body[0].enabled).toBe(false);
    expect(await inbox(env, owner)).toMatchObject([
      {
        action: "webhook.disabled",
        targetType: "webhook",
        targetId: hook.id,
        spaceId: space.id,
        pageId: null,
        actorId: null,
        actorName: null,
        details: { url: "http://127.0.0.1:9/", spaceKey: "DOCS", consecutiveFailures: 20 },
      },
    ]);
    expect(await inbox(env, member)).toEqual([]);
  });
});
