import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { makeEnv, type TestEnv } from "../../tests/harness";
import { invalid } from "../platform/errors";
import { dispatchEvents, onEvents, recordEvent, type EventRow, type NewEvent } from "./outbox";
import { eventsOf } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const sample = (targetId: string): NewEvent => ({
  type: "page.updated",
  targetType: "page",
  targetId,
  spaceId: "s1",
  actorId: null,
  data: { n: 1 },
});
const tick = () => new Promise((r) => setTimeout(r, 0));

describe("recordEvent", () => {
  test("writes a row with the change's transaction", () => {
    env.core.tx(() => recordEvent(env.core, sample("p1")));
    const [row] = eventsOf(env);
    expect(row).toMatchObject({ type: "page.updated", targetType: "page", targetId: "p1", spaceId: "s1", actorId: null, data: { n: 1 } });
    expect(row.createdAt).toBe(new Date(env.clock.now()).toISOString());
  });

  test("a change that fails after recording records nothing", () => {
    expect(() =>
      env.core.tx(() => {
        recordEvent(env.core, sample("p1"));
        throw invalid("title", "must not be blank");
      }),
    ).toThrow();
    expect(eventsOf(env)).toHaveLength(0);
  });

  test("refuses to run outside a transaction", () => {
    expect(() => recordEvent(env.core, sample("p1"))).toThrow(/inside core.tx/);
  });
});

describe("onEvents", () => {
  test("hands committed events to a consumer after commit, never rolled-back ones", async () => {
    const seen: EventRow[] = [];
    let insideTx = null as boolean | null;
    onEvents(env.core, "test", (core, batch) => {
      insideTx = core.sqlite.inTransaction;
      seen.push(...batch);
    });
    env.core.tx(() => recordEvent(env.core, sample("kept")));
    try {
      env.core.tx(() => {
        recordEvent(env.core, sample("rolled-back"));
        throw new Error("boom");
      });
    } catch {}
    expect(seen).toHaveLength(0); // nothing before the transaction has ended
    await tick();
    expect(seen.map((e) => e.targetId)).toEqual(["kept"]);
    expect(insideTx).toBe(true); // the consumer's own writes commit with its cursor
  });

  test("a new consumer starts at the end of the outbox unless asked to start from the beginning", async () => {
    env.core.tx(() => recordEvent(env.core, sample("old")));
    const fromNow: string[] = [];
    const fromStart: string[] = [];
    onEvents(env.core, "now", (_c, b) => fromNow.push(...b.map((e) => e.targetId)));
    onEvents(env.core, "start", (_c, b) => fromStart.push(...b.map((e) => e.targetId)), { from: "start" });
    env.core.tx(() => recordEvent(env.core, sample("new")));
    await tick();
    expect(fromNow).toEqual(["new"]);
    expect(fromStart).toEqual(["old", "new"]);
  });

  test("a consumer that throws gets the same events again; its cursor survives re-registration", async () => {
    let fail = true;
    const seen: string[] = [];
    const stop = onEvents(env.core, "flaky", (_c, batch) => {
      if (fail) throw new Error("down");
      seen.push(...batch.map((e) => e.targetId));
    });
    env.core.tx(() => recordEvent(env.core, sample("a")));
    await tick();
    expect(seen).toEqual([]);
    stop();
    fail = false;
    env.core.tx(() => recordEvent(env.core, sample("b")));
    // Re-registering (e.g. after a restart) catches up from the stored cursor.
    onEvents(env.core, "flaky", (_c, batch) => seen.push(...batch.map((e) => e.targetId)));
    await tick();
    expect(seen).toEqual(["a", "b"]);
    dispatchEvents(env.core);
    expect(seen).toEqual(["a", "b"]);
  });
});
