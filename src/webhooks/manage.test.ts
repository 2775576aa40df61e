/** Switching webhooks off and on, sending a delivery again, and the event catalogue. */
import { describe, expect, test } from "bun:test";
import { Webhook as Verifier } from "standardwebhooks";
import { call, ownerAndMember } from "../../tests/harness";
import { eventsOf, newSpace } from "../spaces/testing";
import { DISABLE_AFTER_FAILURES, runDueDeliveries } from "./sender";
import { WEBHOOK_EVENT_TYPES } from "./service";
import { webhookAttempts } from "./tables";
import { ALLOW_LOOPBACK, deliveriesOf, newWebhook, webhookTestKit } from "./testing";

const { env, receiver, ownerWithSpace, rename } = webhookTestKit();
const within = (p: Promise<void>, ms: number, what: string) => Promise.race([p, Bun.sleep(ms).then(() => Promise.reject(new Error(what)))]);

describe("GET /api/webhooks/events", () => {
  test("names every event type a webhook can subscribe to, each with plain words, to anyone", async () => {
    const e = env();
    const res = await call(e, "GET", "/api/webhooks/events");
    expect(res.status).toBe(200);
    expect(res.body.map((x: { type: string }) => x.type)).toEqual([...WEBHOOK_EVENT_TYPES]);
    for (const x of res.body) expect(x.description.length).toBeGreaterThan(5);
  });
});

describe("PUT /api/spaces/{key}/webhooks/{id}", () => {
  test("switching off abandons what waits and queues nothing more; switching on again sends new events", async () => {
    const e = env({ env: ALLOW_LOOPBACK });
    const r = receiver();
    const { owner, space } = await ownerWithSpace(e);
    const hook = await newWebhook(e, owner, "DOCS", "http://127.0.0.1:9/", "space.updated");
    await rename(e, owner, "Waiting"); // refused (port 9 answers nothing): a retry waits
    await runDueDeliveries(e.core);

    const off = await call(e, "PUT", `/api/spaces/docs/webhooks/${hook.id}`, { as: owner, body: { enabled: false } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: hook.id, enabled: false });
    expect(off.body.disabledAt).not.toBeNull();
    expect((await deliveriesOf(e, owner, "DOCS", hook.id)).map((d) => [d.status, d.nextAttemptAt])).toEqual([["abandoned", null]]);
    await rename(e, owner, "While off");
    expect((await deliveriesOf(e, owner, "DOCS", hook.id)).length).toBe(1);
    expect(eventsOf(e, "webhook.updated")).toEqual([
      expect.objectContaining({ targetId: hook.id, spaceId: space.id, actorId: owner.id, data: { url: hook.url, enabled: false } }),
    ]);

    // The same state again changes nothing and records nothing.
    const again = await call(e, "PUT", `/api/spaces/DOCS/webhooks/${hook.id}`, { as: owner, body: { enabled: false } });
    expect(again.status).toBe(200);
    expect(again.body.disabledAt).toBe(off.body.disabledAt);
    expect(eventsOf(e, "webhook.updated").length).toBe(1);

    const good = await newWebhook(e, owner, "DOCS", r.url, "space.updated");
    await call(e, "PUT", `/api/spaces/DOCS/webhooks/${good.id}`, { as: owner, body: { enabled: false } });
    const on = await call(e, "PUT", `/api/spaces/DOCS/webhooks/${good.id}`, { as: owner, body: { enabled: true } });
    expect(on.body).toMatchObject({ enabled: true, disabledAt: null, consecutiveFailures: 0 });
    await rename(e, owner, "On again");
    await within(r.until(1), 2_500, "no delivery after switching on");
    expect(JSON.parse(r.received[0].body).data.fields).toEqual(["name"]);
  });

  test("switching on a hook Cairn switched off resets its failure count, so one more failure does not switch it off again", async () => {
    const e = env();
    const { owner } = await ownerWithSpace(e);
    const hook = await newWebhook(e, owner, "DOCS", "http://127.0.0.1:9/", "space.updated");
    for (let i = 0; i < 5; i++) await rename(e, owner, `Name ${i}`);
    for (let round = 0; round < 4; round++) {
      await runDueDeliveries(e.core);
      e.clock.advance(3_600_000);
    }
    const [before] = (await call(e, "GET", "/api/spaces/DOCS/webhooks", { as: owner })).body;
    expect(before).toMatchObject({ enabled: false, consecutiveFailures: DISABLE_AFTER_FAILURES });

    const on = await call(e, "PUT", `/api/spaces/DOCS/webhooks/${hook.id}`, { as: owner, body: { enabled: true } });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ enabled: true, consecutiveFailures: 0, disabledAt: null });
    // What was abandoned stays abandoned: nothing old goes out by surprise.
    await runDueDeliveries(e.core);
    expect(e.core.db.select().from(webhookAttempts).all().length).toBe(DISABLE_AFTER_FAILURES);
    // A new change fails once: the hook stays on, one failure in a row.
    await rename(e, owner, "After");
    await runDueDeliveries(e.core);
    const [after] = (await call(e, "GET", "/api/spaces/DOCS/webhooks", { as: owner })).body;
    expect(after).toMatchObject({ enabled: true, consecutiveFailures: 1 });
  });

  test.each([
    ["enabled missing", {}],
    ["enabled a string", { enabled: "yes" }],
    ["enabled a number", { enabled: 1 }],
    ["enabled null", { enabled: null }],
  ])("refuses %s (400 naming enabled, nothing changed)", async (_why, body) => {
    const e = env();
    const { owner } = await ownerWithSpace(e);
    const hook = await newWebhook(e, owner, "DOCS", "https://hooks.example.com/x");
    const res = await call(e, "PUT", `/api/spaces/DOCS/webhooks/${hook.id}`, { as: owner, body });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("enabled");
    expect((await call(e, "GET", "/api/spaces/DOCS/webhooks", { as: owner })).body[0].enabled).toBe(true);
  });

  test("another space's webhook, an unknown one, or a space the caller does not administer", async () => {
    const e = env();
    const { owner, member } = await ownerAndMember(e);
    await newSpace(e, owner, "DOCS");
    await newSpace(e, owner, "OTHER");
    const other = await newWebhook(e, owner, "OTHER", "https://hooks.example.com/x");
    expect((await call(e, "PUT", `/api/spaces/DOCS/webhooks/${other.id}`, { as: owner, body: { enabled: false } })).status).toBe(404);
    expect((await call(e, "PUT", "/api/spaces/DOCS/webhooks/nope", { as: owner, body: { enabled: false } })).status).toBe(404);
    expect((await call(e, "PUT", `/api/spaces/OTHER/webhooks/${other.id}`, { as: member, body: { enabled: false } })).status).toBe(403);
    expect((await call(e, "GET", "/api/spaces/OTHER/webhooks", { as: owner })).body[0].enabled).toBe(true);
  });
});

describe("POST /api/spaces/{key}/webhooks/{id}/deliveries/{deliveryId}/redeliver", () => {
  test("queues a new delivery of the same payload, sent at once and signed; the original stays as it was", async () => {
    const e = env({ env: ALLOW_LOOPBACK });
    const r = receiver();
    const { owner, space } = await ownerWithSpace(e);
    const hook = await newWebhook(e, owner, "DOCS", r.url, "space.updated");
    await rename(e, owner, "Renamed");
    await within(r.until(1), 2_500, "no first delivery");
    await runDueDeliveries(e.core);
    const [first] = await deliveriesOf(e, owner, "DOCS", hook.id);
    expect(first.status).toBe("succeeded");

    const res = await call(e, "POST", `/api/spaces/docs/webhooks/${hook.id}/deliveries/${first.id}/redeliver`, { as: owner });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      eventId: first.eventId,
      eventType: "space.updated",
      status: "pending",
      attempts: 0,
      log: [],
      payload: first.payload,
    });
    expect(res.body.id).not.toBe(first.id);
    // No runDueDeliveries: the commit starts the attempt, like a first one.
    await within(r.until(2), 2_500, "no redelivery right after the commit");
    const [a, b] = r.received;
    expect(b.body).toBe(a.body);
    expect(new Verifier(hook.secret).verify(b.body, b.headers)).toEqual(first.payload);
    expect([a.headers["webhook-id"], b.headers["webhook-id"]]).toEqual([first.id, res.body.id]);

    await runDueDeliveries(e.core);
    const log = await deliveriesOf(e, owner, "DOCS", hook.id);
    expect(log.map((d) => [d.id, d.status, d.attempts])).toEqual([
      [res.body.id, "succeeded", 1],
      [first.id, "succeeded", 1],
    ]);
    expect(eventsOf(e, "webhook.redelivered")).toEqual([
      expect.objectContaining({
        targetId: hook.id,
        spaceId: space.id,
        actorId: owner.id,
        data: { url: hook.url, deliveryId: first.id, newDeliveryId: res.body.id, eventType: "space.updated" },
      }),
    ]);
  });

  test("an abandoned delivery can be sent again", async () => {
    const e = env({ env: ALLOW_LOOPBACK });
    const r = receiver();
    const { owner } = await ownerWithSpace(e);
    const hook = await newWebhook(e, owner, "DOCS", "http://127.0.0.1:9/", "space.updated");
    await rename(e, owner, "Lost");
    await runDueDeliveries(e.core);
    await call(e, "PUT", `/api/spaces/DOCS/webhooks/${hook.id}`, { as: owner, body: { enabled: false } });
    const [lost] = await deliveriesOf(e, owner, "DOCS", hook.id);
    expect(lost.status).toBe("abandoned");
    // Switched off: nothing would send it.
    const refused = await call(e, "POST", `/api/spaces/DOCS/webhooks/${hook.id}/deliveries/${lost.id}/redeliver`, { as: owner });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain("switched off");
    expect((await deliveriesOf(e, owner, "DOCS", hook.id)).length).toBe(1);

    await call(e, "PUT", `/api/spaces/DOCS/webhooks/${hook.id}`, { as: owner, body: { enabled: true } });
    const res = await call(e, "POST", `/api/spaces/DOCS/webhooks/${hook.id}/deliveries/${lost.id}/redeliver`, { as: owner });
    expect(res.status).toBe(201);
    await runDueDeliveries(e.core);
    const log = await deliveriesOf(e, owner, "DOCS", hook.id);
    expect(log.map((d) => d.status)).toEqual(["failed", "abandoned"]);
    expect(r.received).toEqual([]);
  });

  test("every id is checked on its own: another webhook's or another space's delivery is a 404", async () => {
    const e = env();
    const { owner, member } = await ownerAndMember(e);
    await newSpace(e, owner, "DOCS");
    await newSpace(e, owner, "OTHER");
    const hook = await newWebhook(e, owner, "DOCS", "http://127.0.0.1:9/", "space.updated");
    const sibling = await newWebhook(e, owner, "DOCS", "http://127.0.0.1:9/", "space.updated");
    const foreign = await newWebhook(e, owner, "OTHER", "http://127.0.0.1:9/", "space.updated");
    await rename(e, owner, "Changed");
    await call(e, "PUT", "/api/spaces/OTHER", { as: owner, body: { name: "Changed too" } });
    const [mine] = await deliveriesOf(e, owner, "DOCS", hook.id);
    const [siblings] = await deliveriesOf(e, owner, "DOCS", sibling.id);
    const [foreigns] = await deliveriesOf(e, owner, "OTHER", foreign.id);
    const cases: Array<[string, string]> = [
      ["a sibling webhook's delivery", `/api/spaces/DOCS/webhooks/${hook.id}/deliveries/${siblings.id}/redeliver`],
      ["another space's delivery", `/api/spaces/DOCS/webhooks/${hook.id}/deliveries/${foreigns.id}/redeliver`],
      ["another space's webhook", `/api/spaces/DOCS/webhooks/${foreign.id}/deliveries/${foreigns.id}/redeliver`],
      ["a delivery under the wrong space key", `/api/spaces/OTHER/webhooks/${hook.id}/deliveries/${mine.id}/redeliver`],
      ["an unknown delivery", `/api/spaces/DOCS/webhooks/${hook.id}/deliveries/nope/redeliver`],
      ["an unknown space", `/api/spaces/NOPE/webhooks/${hook.id}/deliveries/${mine.id}/redeliver`],
    ];
    for (const [why, path] of cases) {
      const res = await call(e, "POST", path, { as: owner });
      if (res.status !== 404) throw new Error(`${why}: ${res.status} ${res.text}`);
    }
    expect((await call(e, "POST", `/api/spaces/DOCS/webhooks/${hook.id}/deliveries/${mine.id}/redeliver`, { as: member })).status).toBe(
      403,
    );
    expect((await call(e, "POST", `/api/spaces/DOCS/webhooks/${hook.id}/deliveries/${mine.id}/redeliver`)).status).toBe(401);
    expect(eventsOf(e, "webhook.redelivered")).toEqual([]);
  });
});
