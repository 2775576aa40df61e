/**
 * Webhook deliveries never follow redirects: a 301/302 used to be followed as a bodiless GET
 * and recorded "succeeded" although the payload never arrived. Real receivers on loopback
 * ports (allowed through CAIRN_OUTBOUND_ALLOW, as in delivery.test.ts).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { call, makeEnv, signUp, type TestEnv } from "../../tests/harness";
import { newSpace } from "../spaces/testing";
import { RETRY_DELAYS_MS, runDueDeliveries } from "./sender";
import { deliveriesOf, newWebhook, startReceiver } from "./testing";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanups.splice(0).reverse()) fn();
});

function receiver(answer?: Parameters<typeof startReceiver>[0]) {
  const r = startReceiver(answer);
  cleanups.push(r.stop);
  return r;
}

async function ownerWithSpace(): Promise<{ e: TestEnv; owner: { cookie: string } }> {
  const e = makeEnv({ env: { CAIRN_OUTBOUND_ALLOW: "127.0.0.1" } });
  cleanups.push(() => e.close());
  const owner = await signUp(e, "owner@example.com");
  await newSpace(e, owner, "DOCS");
  return { e, owner };
}

const rename = (e: TestEnv, who: { cookie: string }, name: string) => call(e, "PUT", "/api/spaces/DOCS", { as: who, body: { name } });

describe("webhook deliveries and redirects", () => {
  test.each([301, 302, 303, 307, 308])(
    "a %i is a failed attempt with its status and Location; the target is never called",
    async (status) => {
      const { e, owner } = await ownerWithSpace();
      const target = receiver();
      const first = receiver(() => new Response("moved", { status, headers: { location: target.url } }));
      const hook = await newWebhook(e, owner, "DOCS", first.url, "space.updated");
      await rename(e, owner, "Renamed");
      await runDueDeliveries(e.core);

      const [d] = await deliveriesOf(e, owner, "DOCS", hook.id);
      expect(d).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: status });
      expect(d.lastError).toContain(`HTTP ${status}`);
      expect(d.lastError).toContain(target.url);
      expect(d.log).toEqual([expect.objectContaining({ attempt: 1, statusCode: status, error: d.lastError })]);
      // The normal backoff applies: the next attempt waits the first retry delay.
      expect(d.nextAttemptAt).toBe(new Date(e.clock.now() + RETRY_DELAYS_MS[0]).toISOString());
      expect(first.received).toHaveLength(1);
      expect(target.received).toEqual([]);
    },
  );

  test("the retry is sent to the webhook's own URL again, and succeeds once it answers 2xx", async () => {
    const { e, owner } = await ownerWithSpace();
    const target = receiver();
    const first = receiver((n) => (n === 0 ? new Response(null, { status: 302, headers: { location: target.url } }) : new Response("ok")));
    const hook = await newWebhook(e, owner, "DOCS", first.url, "space.updated");
    await rename(e, owner, "Renamed");
    await runDueDeliveries(e.core);
    e.clock.advance(RETRY_DELAYS_MS[0]);
    await runDueDeliveries(e.core);

    const [d] = await deliveriesOf(e, owner, "DOCS", hook.id);
    expect(d).toMatchObject({ status: "succeeded", attempts: 2, lastStatusCode: 200 });
    expect(d.log.map((l) => l.statusCode)).toEqual([302, 200]);
    expect(first.received.map((r) => r.path)).toEqual(["/hook", "/hook"]);
    // Both attempts carried the payload, the first one included.
    expect(first.received.every((r) => JSON.parse(r.body).type === "space.updated")).toBe(true);
    expect(target.received).toEqual([]);
  });

  test("a redirect without a Location is a failure too", async () => {
    const { e, owner } = await ownerWithSpace();
    const first = receiver(() => new Response(null, { status: 302 }));
    const hook = await newWebhook(e, owner, "DOCS", first.url, "space.updated");
    await rename(e, owner, "Renamed");
    await runDueDeliveries(e.core);
    const [d] = await deliveriesOf(e, owner, "DOCS", hook.id);
    expect(d).toMatchObject({ status: "failed", lastStatusCode: 302 });
    expect(d.lastError).toContain("HTTP 302");
  });
});
