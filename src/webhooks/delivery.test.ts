import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { call, makeEnv, signUp } from "../../tests/harness";
import { recordEvent } from "../events/outbox";
import { newPage } from "../pages/testing";
import { eventsOf, newSpace } from "../spaces/testing";
import { DISABLE_AFTER_FAILURES, MAX_ATTEMPTS, RETRY_DELAYS_MS, runDueDeliveries } from "./sender";
import { webhookAttempts, webhookDeliveries } from "./tables";
import { ALLOW_LOOPBACK, deliveriesOf, newWebhook, webhookTestKit } from "./testing";

const { cleanup, env, receiver, ownerWithSpace, rename } = webhookTestKit();

describe("the outbound guard at delivery", () => {
  test("a webhook at a loopback address is refused while nothing allows it; the log says why", async () => {
    const e = env();
    const r = receiver();
    const { owner } = await ownerWithSpace(e);
    const hook = await newWebhook(e, owner, "DOCS", r.url, "space.updated");
    await rename(e, owner, "Renamed");
    await runDueDeliveries(e.core);
    const [d] = await deliveriesOf(e, owner, "DOCS", hook.id);
    expect(d).toMatchObject({ eventType: "space.updated", status: "failed", attempts: 1, lastStatusCode: null });
    expect(d.lastError).toContain("refused: loopback address 127.0.0.1");
    expect(d.log).toEqual([expect.objectContaining({ attempt: 1, statusCode: null, error: d.lastError })]);
    expect(d.nextAttemptAt).toBe(new Date(e.clock.now() + RETRY_DELAYS_MS[0]).toISOString());
    expect(r.received).toEqual([]);
  });

  test("with CAIRN_OUTBOUND_ALLOW=127.0.0.1 a signed delivery arrives right after the commit and verifies", async () => {
    const e = env({ env: ALLOW_LOOPBACK });
    const r = receiver(() => new Response("ok ".repeat(1000)));
    const { owner, space } = await ownerWithSpace(e);
    const hook = await newWebhook(e, owner, "DOCS", r.url, ["space.updated"]);
    await rename(e, owner, "Renamed");
    // No runDueDeliveries here: the commit itself starts the first attempt (the retry timer
    // ticks every 5 s, so an arrival well within that came from the commit).
    await Promise.race([r.until(1), Bun.sleep(2_500).then(() => Promise.reject(new Error("no delivery right after the commit")))]);
    const [got] = r.received;
    const payload = new Webhook(hook.secret).verify(got.body, got.headers) as {
      type: string;
      timestamp: string;
      data: Record<string, unknown>;
    };
    const event = eventsOf(e, "space.updated")[0];
    expect(payload).toEqual({
      type: "space.updated",
      timestamp: event.createdAt,
      data: { eventId: event.id, spaceId: space.id, spaceKey: "DOCS", actorId: owner.id, fields: ["name"] },
    });
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["webhook-timestamp"]).toBe(String(Math.floor(e.clock.now() / 1000)));
    expect(got.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    // A wrong secret or a changed body does not verify.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`).verify(got.body, got.headers)).toThrow();
    expect(() => new Webhook(hook.secret).verify(got.body.replace("Renamed", "Renamex").replace("name", "nama"), got.headers)).toThrow();

    await runDueDeliveries(e.core);
    const [d] = await deliveriesOf(e, owner, "DOCS", hook.id);
    expect(got.headers["webhook-id"]).toBe(d.id);
    expect(d).toMatchObject({ status: "succeeded", attempts: 1, lastStatusCode: 200, lastError: null, nextAttemptAt: null });
    expect(d.lastResponseSnippet).toBe("ok ".repeat(1000).slice(0, 1024));
    expect(d.log).toEqual([expect.objectContaining({ attempt: 1, statusCode: 200, error: null, responseSnippet: d.lastResponseSnippet })]);
    expect(d.payload).toEqual(payload);
  });

  test("a page created through the API is delivered as page.created", async () => {
    const e = env({ env: ALLOW_LOOPBACK });
    const r = receiver();
    const { owner, space } = await ownerWithSpace(e);
    const hook = await newWebhook(e, owner, "DOCS", r.url, "page.created,page.updated");
    const page = await newPage(e, owner, space.id, "Hello");
    await runDueDeliveries(e.core);
    expect(r.received.length).toBe(1);
    const payload = new Webhook(hook.secret).verify(r.received[0].body, r.received[0].headers) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(payload.type).toBe("page.created");
    expect(payload.data).toMatchObject({ pageId: page.id, spaceId: space.id, spaceKey: "DOCS", actorId: owner.id, title: "Hello" });
  });
});

describe("what is queued", () => {
  test("only subscribed types of the hook's own space, only webhook event types, only enabled hooks", async () => {
    const e = env();
    const { owner, space } = await ownerWithSpace(e);
    const all = await newWebhook(e, owner, "DOCS", "http://127.0.0.1:9/all", "*");
    const pagesOnly = await newWebhook(e, owner, "DOCS", "http://127.0.0.1:9/pages", "page.created");
    await newSpace(e, owner, "OTHER");
    const other = await newWebhook(e, owner, "OTHER", "http://127.0.0.1:9/other", "*");
    await rename(e, owner, "Renamed"); // space.updated
    await call(e, "POST", "/api/spaces/DOCS/archive", { as: owner }); // space.archived: not a webhook event
    await call(e, "POST", "/api/spaces/DOCS/unarchive", { as: owner });
    await newPage(e, owner, space.id, "P"); // page.created
    const queued = (hookId: string) =>
      e.core.db
        .select()
        .from(webhookDeliveries)
        .all()
        .filter((d) => d.webhookId === hookId)
        .map((d) => d.eventType)
        .sort();
    expect(queued(all.id)).toEqual(["page.created", "space.updated"]);
    expect(queued(pagesOnly.id)).toEqual(["page.created"]);
    expect(queued(other.id)).toEqual([]);
  });

  test("a page moved to another space is told to the hooks of both spaces", async () => {
    const e = env();
    const { owner, space } = await ownerWithSpace(e);
    const other = await newSpace(e, owner, "OTHER");
    const from = await newWebhook(e, owner, "DOCS", "http://127.0.0.1:9/from", "page.moved");
    const to = await newWebhook(e, owner, "OTHER", "http://127.0.0.1:9/to", "page.moved");
    const page = await newPage(e, owner, space.id, "Travelling");
    expect((await call(e, "PUT", `/api/pages/${page.id}/move`, { as: owner, body: { spaceId: other.id } })).status).toBe(200);
    const moved = e.core.db.select().from(webhookDeliveries).all();
    expect(moved.map((d) => d.webhookId).sort()).toEqual([from.id, to.id].sort());
    expect(JSON.parse(moved[0].payload).data).toMatchObject({ pageId: page.id, spaceId: other.id, from: { spaceId: space.id } });
  });

  test("a change that rolls back queues nothing", async () => {
    const e = env();
    const { owner, space } = await ownerWithSpace(e);
    await newWebhook(e, owner, "DOCS", "http://127.0.0.1:9/", "*");
    expect(() =>
      e.core.tx(() => {
        recordEvent(e.core, { type: "space.updated", targetType: "space", targetId: space.id, spaceId: space.id, actorId: owner.id });
        throw new Error("the change failed");
      }),
    ).toThrow("the change failed");
    await runDueDeliveries(e.core);
    expect(e.core.db.select().from(webhookDeliveries).all()).toEqual([]);
  });

  test("the delivery log lists the newest first, at most 200", async () => {
    const e = env();
    const { owner, space } = await ownerWithSpace(e);
    const hook = await newWebhook(e, owner, "DOCS", "https://hooks.example.com/", "space.updated");
    e.core.tx(() => {
      for (let i = 0; i < 205; i++) {
        recordEvent(e.core, {
          type: "space.updated",
          targetType: "space",
          targetId: space.id,
          spaceId: space.id,
          actorId: owner.id,
          data: { n: i },
        });
        e.clock.advance(1);
      }
    });
    const list = await deliveriesOf(e, owner, "DOCS", hook.id);
    expect(list.length).toBe(200);
    expect(list[0].payload.data.n).toBe(204);
    expect(list[199].payload.data.n).toBe(5);
  });
});

describe("retries", () => {
  test("a failing receiver is retried after 5 s and 30 s with the same webhook-id, then succeeds", async () => {
    const e = env({ env: ALLOW_LOOPBACK });
    const r = receiver((n) => (n < 2 ? new Response("busy", { status: 503 }) : new Response("fine")));
    const { owner } = await ownerWithSpace(e);
    const hook = await newWebhook(e, owner, "DOCS", r.url, "space.updated");
    await rename(e, owner, "Renamed");
    await runDueDeliveries(e.core);
    expect(r.received.length).toBe(1);
    let [d] = await deliveriesOf(e, owner, "DOCS", hook.id);
    expect(d).toMatchObject({
      status: "failed",
      attempts: 1,
      lastStatusCode: 503,
      lastError: "answered HTTP 503",
      lastResponseSnippet: "busy",
    });

    e.clock.advance(RETRY_DELAYS_MS[0] - 1);
    await runDueDeliveries(e.core);
    expect(r.received.length).toBe(1); // not due yet
    e.clock.advance(1);
    await runDueDeliveries(e.core);
    expect(r.received.length).toBe(2);
    e.clock.advance(RETRY_DELAYS_MS[1]);
    await runDueDeliveries(e.core);
    expect(r.received.length).toBe(3);

    [d] = await deliveriesOf(e, owner, "DOCS", hook.id);
    expect(d).toMatchObject({ status: "succeeded", attempts: 3, lastStatusCode: 200, nextAttemptAt: null });
    expect(d.log.map((a) => a.statusCode)).toEqual([503, 503, 200]);
    expect(new Set(r.received.map((x) => x.headers["webhook-id"]))).toEqual(new Set([d.id]));
    for (const got of r.received) expect(new Webhook(hook.secret).verify(got.body, got.headers)).toEqual(d.payload);
    const hooks = await call(e, "GET", "/api/spaces/DOCS/webhooks", { as: owner });
    expect(hooks.body[0]).toMatchObject({ enabled: true, consecutiveFailures: 0 });
  });

  test(`a delivery is abandoned after ${MAX_ATTEMPTS} failed attempts`, async () => {
    const e = env();
    const { owner } = await ownerWithSpace(e);
    const hook = await newWebhook(e, owner, "DOCS", "http://10.0.0.1/", "space.updated");
    await rename(e, owner, "Renamed");
    await runDueDeliveries(e.core);
    for (const wait of RETRY_DELAYS_MS) {
      e.clock.advance(wait);
      await runDueDeliveries(e.core);
    }
    const [d] = await deliveriesOf(e, owner, "DOCS", hook.id);
    expect(d).toMatchObject({ status: "abandoned", attempts: MAX_ATTEMPTS, nextAttemptAt: null });
    expect(d.log.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(d.lastError).toContain("refused: private address 10.0.0.1");
    e.clock.advance(24 * 3_600_000);
    await runDueDeliveries(e.core);
    expect(e.core.db.select().from(webhookAttempts).all().length).toBe(MAX_ATTEMPTS);
  });

  test(
    `${DISABLE_AFTER_FAILURES} failed attempts in a row switch the hook ` + `off, abandon what waits and record webhook.disabled`,
    async () => {
      const e = env();
      const { owner, space } = await ownerWithSpace(e);
      const hook = await newWebhook(e, owner, "DOCS", "http://127.0.0.1:9/", "space.updated");
      for (let i = 0; i < 5; i++) await rename(e, owner, `Name ${i}`);
      // 5 deliveries failing together: the 4th round brings the 20th failure.
      for (let round = 0; round < 4; round++) {
        await runDueDeliveries(e.core);
        e.clock.advance(3_600_000);
      }
      const [listed] = (await call(e, "GET", "/api/spaces/DOCS/webhooks", { as: owner })).body;
      expect(listed).toMatchObject({ enabled: false, consecutiveFailures: DISABLE_AFTER_FAILURES });
      expect(listed.disabledAt).not.toBeNull();
      const deliveries = await deliveriesOf(e, owner, "DOCS", hook.id);
      expect(deliveries.map((d) => d.status)).toEqual(Array(5).fill("abandoned"));
      const disabled = eventsOf(e, "webhook.disabled");
      expect(disabled).toEqual([expect.objectContaining({ targetType: "webhook", targetId: hook.id, spaceId: space.id, actorId: null })]);
      expect(disabled[0].data).toMatchObject({ url: hook.url, consecutiveFailures: DISABLE_AFTER_FAILURES });
      // Switched off: new changes queue nothing, nothing more is tried.
      await rename(e, owner, "Later");
      await runDueDeliveries(e.core);
      expect((await deliveriesOf(e, owner, "DOCS", hook.id)).length).toBe(5);
      expect(e.core.db.select().from(webhookAttempts).all().length).toBe(DISABLE_AFTER_FAILURES);
    },
  );

  test("a success resets the failure count", async () => {
    const e = env({ env: ALLOW_LOOPBACK });
    const r = receiver((n) => (n === 0 ? new Response("no", { status: 500 }) : new Response("yes")));
    const { owner } = await ownerWithSpace(e);
    await newWebhook(e, owner, "DOCS", r.url, "space.updated");
    await rename(e, owner, "One");
    await runDueDeliveries(e.core);
    expect((await call(e, "GET", "/api/spaces/DOCS/webhooks", { as: owner })).body[0].consecutiveFailures).toBe(1);
    await rename(e, owner, "Two");
    await runDueDeliveries(e.core);
    expect((await call(e, "GET", "/api/spaces/DOCS/webhooks", { as: owner })).body[0].consecutiveFailures).toBe(0);
  });

  test(
    "attempts that finish together are recorded together: each delivery its own " +
      "numbered line and state, successes end the failure run",
    async () => {
      const e = env({ env: ALLOW_LOOPBACK });
      // The first two attempts fail, every later one succeeds.
      const r = receiver((n) => (n < 2 ? new Response("no", { status: 500 }) : new Response("yes")));
      const { owner } = await ownerWithSpace(e);
      const hook = await newWebhook(e, owner, "DOCS", r.url, "space.updated");
      for (let i = 0; i < 5; i++) await rename(e, owner, `Name ${i}`);
      await runDueDeliveries(e.core);
      expect(r.received.length).toBe(5);
      let deliveries = await deliveriesOf(e, owner, "DOCS", hook.id);
      expect(deliveries.map((d) => d.status).sort()).toEqual(["failed", "failed", "succeeded", "succeeded", "succeeded"]);
      for (const d of deliveries) {
        expect(d.attempts).toBe(1);
        expect(d.log).toEqual([
          expect.objectContaining({
            attempt: 1,
            statusCode: d.status === "succeeded" ? 200 : 500,
            responseSnippet: d.status === "succeeded" ? "yes" : "no",
          }),
        ]);
        expect(d.nextAttemptAt).toBe(d.status === "succeeded" ? null : new Date(e.clock.now() + RETRY_DELAYS_MS[0]).toISOString());
      }
      e.clock.advance(RETRY_DELAYS_MS[0]);
      await runDueDeliveries(e.core);
      deliveries = await deliveriesOf(e, owner, "DOCS", hook.id);
      expect(deliveries.map((d) => d.status)).toEqual(Array(5).fill("succeeded"));
      expect(
        deliveries
          .map((d) => d.log.map((a) => [a.attempt, a.statusCode]).sort((a, b) => Number(a[0]) - Number(b[0])))
          .sort((a, b) => b.length - a.length),
      ).toEqual([
        [
          [1, 500],
          [2, 200],
        ],
        [
          [1, 500],
          [2, 200],
        ],
        [[1, 200]],
        [[1, 200]],
        [[1, 200]],
      ]);
      expect((await call(e, "GET", "/api/spaces/DOCS/webhooks", { as: owner })).body[0].consecutiveFailures).toBe(0);
      expect(e.core.db.select().from(webhookAttempts).all().length).toBe(7);
    },
  );

  test("deliveries left waiting survive a restart and go out once allowed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-webhooks-"));
    cleanup(() => rmSync(dir, { recursive: true, force: true }));
    const r = receiver();
    // 1. First run: loopback not allowed, the attempt is refused and a retry is scheduled.
    const first = makeEnv({ dir });
    const owner = await signUp(first, "owner@example.com");
    await newSpace(first, owner, "DOCS");
    const hook = await newWebhook(first, owner, "DOCS", r.url, "space.updated");
    await rename(first, owner, "Renamed");
    await runDueDeliveries(first.core);
    const due = first.core.db.select().from(webhookDeliveries).get()!;
    expect(due.status).toBe("failed");
    first.close();
    // 2. Restart with loopback allowed: once the retry is due, it is delivered.
    const second = env({ dir, env: ALLOW_LOOPBACK });
    second.clock.advance(Math.max(0, Date.parse(due.nextAttemptAt!) - second.clock.now()));
    await runDueDeliveries(second.core);
    expect(r.received.length).toBe(1);
    expect(new Webhook(hook.secret).verify(r.received[0].body, r.received[0].headers)).toMatchObject({ type: "space.updated" });
    const [d] = await deliveriesOf(second, owner, "DOCS", hook.id);
    expect(d).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(d.log.map((a) => a.statusCode)).toEqual([null, 200]);
  });
});
