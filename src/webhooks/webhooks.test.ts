import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, signUp, type TestEnv } from "../../tests/harness";
import { eventsOf, newSpace } from "../spaces/testing";
import { webhookDeliveries, webhooks } from "./tables";

let env: TestEnv;

/** Each test of the block starts from an instance of its own. */
function freshInstanceEach() {
  beforeEach(() => (env = makeEnv()));
  afterEach(() => env.close());
}

const HOOK = "https://hooks.example.com/cairn";

describe("POST /api/spaces/{key}/webhooks", () => {
  freshInstanceEach();

  test("creates a webhook and shows its whsec_ secret once", async () => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    const res = await call(env, "POST", "/api/spaces/docs/webhooks", {
      as: owner,
      body: { url: HOOK, events: ["page.created", "page.updated"] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      url: HOOK,
      events: ["page.created", "page.updated"],
      enabled: true,
      consecutiveFailures: 0,
      disabledAt: null,
      createdById: owner.id,
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(res.body.secret.slice(6), "base64").length).toBe(32);

    const list = await call(env, "GET", "/api/spaces/DOCS/webhooks", { as: owner });
    expect(list.status).toBe(200);
    const { secret, ...shown } = res.body;
    expect(list.body).toEqual([shown]);
    expect(list.text).not.toContain(secret);
    expect(eventsOf(env, "webhook.created").map((e) => e.targetId)).toEqual([res.body.id]);
  });

  test.each([
    ["a comma-separated string", "page.created, page.moved,page.created", ["page.created", "page.moved"]],
    ["* alone", ["*"], ["*"]],
    ["* among others", "page.created,*", ["*"]],
    [
      "every named type",
      "comment.created,comment.resolved,attachment.created,label.added,label.removed,space.updated",
      ["comment.created", "comment.resolved", "attachment.created", "label.added", "label.removed", "space.updated"],
    ],
  ])("accepts events as %s", async (_why, events, stored) => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    const res = await call(env, "POST", "/api/spaces/DOCS/webhooks", { as: owner, body: { url: HOOK, events } });
    expect(res.status).toBe(201);
    expect(res.body.events).toEqual(stored);
  });

  test("a private address is accepted at creation: it is checked at each delivery", async () => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    const res = await call(env, "POST", "/api/spaces/DOCS/webhooks", { as: owner, body: { url: "http://127.0.0.1:9/x", events: "*" } });
    expect(res.status).toBe(201);
  });

  test("an archived space takes no new webhooks", async () => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    await call(env, "POST", "/api/spaces/DOCS/archive", { as: owner });
    const res = await call(env, "POST", "/api/spaces/DOCS/webhooks", { as: owner, body: { url: HOOK, events: "*" } });
    expect(res.status).toBe(403);
  });
});

describe("POST /api/spaces/{key}/webhooks refuses", () => {
  // A refusal writes nothing (each case checks the webhooks table after it), so the 16 cases
  // share one instance, owner and space: making them for each was most of their time.
  let owner: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    env = makeEnv();
    owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
  });
  afterAll(() => env.close());

  test.each([
    ["javascript: URL", { url: "javascript:alert(1)", events: "*" }, "url"],
    ["ftp: URL", { url: "ftp://example.com/x", events: "*" }, "url"],
    ["file: URL", { url: "file:///etc/passwd", events: "*" }, "url"],
    ["URL without a host", { url: "http://", events: "*" }, "url"],
    ["relative URL", { url: "/hooks", events: "*" }, "url"],
    ["blank URL", { url: "  ", events: "*" }, "url"],
    ["URL with a password", { url: "https://me:secret@example.com/", events: "*" }, "url"],
    ["URL over 2048 characters", { url: `https://example.com/${"a".repeat(2040)}`, events: "*" }, "url"],
    ["URL missing", { events: "*" }, "url"],
    ["URL not a string", { url: 42, events: "*" }, "url"],
    ["unknown event type", { url: HOOK, events: ["page.created", "page.exploded"] }, "events"],
    ["space.created (not a webhook event)", { url: HOOK, events: "space.created" }, "events"],
    ["empty list", { url: HOOK, events: [] }, "events"],
    ["empty string", { url: HOOK, events: " , ," }, "events"],
    ["events missing", { url: HOOK }, "events"],
    ["events a number", { url: HOOK, events: 3 }, "events"],
  ])("refuses a %s (400 on the field, nothing written)", async (_why, body, field) => {
    const res = await call(env, "POST", "/api/spaces/DOCS/webhooks", { as: owner, body });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(env.core.db.select().from(webhooks).all()).toEqual([]);
  });
});

describe("who may manage webhooks", () => {
  freshInstanceEach();

  async function setUp() {
    const { owner, member } = await ownerAndMember(env);
    await newSpace(env, owner, "DOCS");
    const hook = await call(env, "POST", "/api/spaces/DOCS/webhooks", { as: owner, body: { url: HOOK, events: "*" } });
    return { owner, member, hookId: hook.body.id as string };
  }

  test.each([
    ["list", "GET", (_id: string) => "/api/spaces/DOCS/webhooks"],
    ["create", "POST", (_id: string) => "/api/spaces/DOCS/webhooks"],
    ["delete", "DELETE", (id: string) => `/api/spaces/DOCS/webhooks/${id}`],
    ["read deliveries", "GET", (id: string) => `/api/spaces/DOCS/webhooks/${id}/deliveries`],
  ])("%s: a member who does not administer the space gets 403, anonymous 401, a missing space 404", async (_what, method, path) => {
    const { member, owner, hookId } = await setUp();
    const body = method === "POST" ? { url: HOOK, events: "*" } : undefined;
    expect((await call(env, method, path(hookId), { as: member, body })).status).toBe(403);
    expect((await call(env, method, path(hookId), { body })).status).toBe(401);
    expect((await call(env, method, path(hookId).replace("DOCS", "NOPE"), { as: owner, body })).status).toBe(404);
    expect(env.core.db.select().from(webhooks).all().length).toBe(1);
  });

  test("a member administers the webhooks of a space they created", async () => {
    const { member } = await setUp();
    await newSpace(env, member, "MINE");
    const res = await call(env, "POST", "/api/spaces/MINE/webhooks", { as: member, body: { url: HOOK, events: "*" } });
    expect(res.status).toBe(201);
    expect((await call(env, "GET", "/api/spaces/MINE/webhooks", { as: member })).body.length).toBe(1);
  });

  test("a read-only token cannot create or delete (403 read_only_token)", async () => {
    const { owner, hookId } = await setUp();
    const ro = await mintToken(env, owner, { name: "ro", readOnly: true });
    const created = await call(env, "POST", "/api/spaces/DOCS/webhooks", { as: { token: ro }, body: { url: HOOK, events: "*" } });
    expect(created).toMatchObject({ status: 403, body: { code: "read_only_token" } });
    const deleted = await call(env, "DELETE", `/api/spaces/DOCS/webhooks/${hookId}`, { as: { token: ro } });
    expect(deleted).toMatchObject({ status: 403, body: { code: "read_only_token" } });
    const full = await mintToken(env, owner);
    expect((await call(env, "POST", "/api/spaces/DOCS/webhooks", { as: { token: full }, body: { url: HOOK, events: "*" } })).status).toBe(
      201,
    );
  });
});

describe("DELETE /api/spaces/{key}/webhooks/{id}", () => {
  freshInstanceEach();

  test("deletes the webhook with its waiting deliveries; a second delete is 404", async () => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    const hook = await call(env, "POST", "/api/spaces/DOCS/webhooks", {
      as: owner,
      body: { url: "http://127.0.0.1:9/", events: "space.updated" },
    });
    await call(env, "PUT", "/api/spaces/DOCS", { as: owner, body: { name: "Renamed" } });
    expect(env.core.db.select().from(webhookDeliveries).all().length).toBe(1);
    const res = await call(env, "DELETE", `/api/spaces/DOCS/webhooks/${hook.body.id}`, { as: owner });
    expect(res.status).toBe(204);
    expect(env.core.db.select().from(webhooks).all()).toEqual([]);
    expect(env.core.db.select().from(webhookDeliveries).all()).toEqual([]);
    expect(eventsOf(env, "webhook.deleted").map((e) => e.targetId)).toEqual([hook.body.id]);
    expect((await call(env, "DELETE", `/api/spaces/DOCS/webhooks/${hook.body.id}`, { as: owner })).status).toBe(404);
  });

  test.each([
    ["an unknown id", false],
    ["another space's webhook", true],
  ])("%s is 404 for delete and deliveries", async (_why, elsewhere) => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    await newSpace(env, owner, "OTHER");
    const id = elsewhere
      ? ((await call(env, "POST", "/api/spaces/OTHER/webhooks", { as: owner, body: { url: HOOK, events: "*" } })).body.id as string)
      : "0190a000-0000-7000-8000-000000000000";
    expect((await call(env, "DELETE", `/api/spaces/DOCS/webhooks/${id}`, { as: owner })).status).toBe(404);
    expect((await call(env, "GET", `/api/spaces/DOCS/webhooks/${id}/deliveries`, { as: owner })).status).toBe(404);
    expect(env.core.db.select().from(webhooks).all().length).toBe(elsewhere ? 1 : 0);
  });
});
