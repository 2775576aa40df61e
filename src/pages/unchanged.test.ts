/**
 * A PUT that changes nothing adds nothing (docs/decisions.md, "Unchanged updates"): no version, no
 * event, no webhook delivery, no notification; the answer is the page as it is. Publishing a draft
 * is always a change.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, type TestEnv } from "../../tests/harness";
import { newWebhook } from "../webhooks/testing";
import { doc, eventsOf, ownerMemberAndPage } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const count = (table: string) => (env.core.sqlite.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
/** Everything a page change leaves behind. */
const traces = () => ({
  versions: count("page_versions"),
  events: eventsOf(env).length,
  deliveries: count("webhook_deliveries"),
  notifications: count("notifications"),
});

/** DOCS with the page "Guide" (version 1, "body"), a webhook on every event and the member watching. */
async function setup() {
  const { owner, member, space, page } = await ownerMemberAndPage(env);
  await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { contentJson: doc("body") } });
  await newWebhook(env, owner, "DOCS", "http://127.0.0.1:9/hook");
  expect((await call(env, "POST", `/api/pages/${page.id}/watch`, { as: member })).status).toBeLessThan(300);
  const before = (await call(env, "GET", `/api/pages/${page.id}`, { as: owner })).body;
  return { owner, member, space, page, before };
}

describe("PUT /api/pages/{id} that changes nothing", () => {
  test.each([
    ["the same title and document", { title: "Guide", contentJson: doc("body") }],
    ["the same title only", { title: "Guide" }],
    ["the same document only", { contentJson: doc("body") }],
    ["the same title with spaces around it", { title: "  Guide " }],
    ["the same document written differently", { contentJson: JSON.stringify(JSON.parse(doc("body")), null, 2) }],
    ["a changeComment and nothing else new", { title: "Guide", contentJson: doc("body"), changeComment: "Saved again" }],
    ["the right baseVersion", { title: "Guide", contentJson: doc("body"), baseVersion: 2 }],
  ])("%s: 200 with the page as it is; no version, event, webhook or notification", async (_why, body) => {
    const { owner, page, before } = await setup();
    const had = traces();
    const res = await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(before);
    expect(traces()).toEqual(had);
    expect((await call(env, "GET", `/api/pages/${page.id}`, { as: owner })).body).toEqual(before);
  });

  test("a real change beside it still adds a version, its event and its delivery (the counts above mean something)", async () => {
    const { owner, page } = await setup();
    const had = traces();
    const res = await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { title: "Guide", contentJson: doc("new body") } });
    expect(res.body.currentVersionNumber).toBe(3);
    expect(traces()).toMatchObject({
      versions: had.versions + 1,
      events: had.events + 1,
      deliveries: had.deliveries + 1,
      notifications: had.notifications + 1,
    });
  });

  test("a rename that sends the same document records contentChanged: false", async () => {
    const { owner, page } = await setup();
    await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { title: "Handbook", contentJson: doc("body") } });
    expect(eventsOf(env, "page.updated").at(-1)?.data).toMatchObject({ versionNumber: 3, renamed: true, contentChanged: false });
  });

  test("a stale baseVersion is still 409, even when what it sends equals the current page", async () => {
    const { owner, page } = await setup();
    const res = await call(env, "PUT", `/api/pages/${page.id}`, {
      as: owner,
      body: { title: "Guide", contentJson: doc("body"), baseVersion: 1 },
    });
    expect(res).toMatchObject({ status: 409, body: { code: "version_conflict" } });
  });

  test("a draft's autosave of what it already holds adds no version", async () => {
    const { owner, space } = await setup();
    const draft = (await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } })).body;
    await call(env, "PUT", `/api/pages/${draft.id}`, { as: owner, body: { title: "", contentJson: doc("wip") } });
    const had = traces();
    const again = await call(env, "PUT", `/api/pages/${draft.id}`, { as: owner, body: { title: "", contentJson: doc("wip") } });
    expect(again.body).toMatchObject({ status: 0, currentVersionNumber: 2 });
    expect(traces()).toEqual(had);
  });
});

describe("POST /api/pages/{id}/publish of an unchanged draft", () => {
  // Publishing changes who may see the page, so it is never a no-op: it adds its "Published"
  // version and fires page.created even when the title and document are the draft's own.
  test("still publishes, adds the Published version and fires page.created", async () => {
    const { owner, space } = await setup();
    const draft = (await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } })).body;
    await call(env, "PUT", `/api/pages/${draft.id}`, { as: owner, body: { title: "Plan", contentJson: doc("wip") } });
    const res = await call(env, "POST", `/api/pages/${draft.id}/publish`, { as: owner, body: { title: "Plan", contentJson: doc("wip") } });
    expect(res.body).toMatchObject({ status: 1, currentVersionNumber: 3 });
    expect((await call(env, "GET", `/api/pages/${draft.id}/versions`, { as: owner })).body[0]).toMatchObject({
      versionNumber: 3,
      changeComment: "Published",
    });
    expect(eventsOf(env, "page.created").filter((e) => e.targetId === draft.id)).toHaveLength(1);
  });
});
