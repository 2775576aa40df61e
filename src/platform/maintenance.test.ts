/** Maintenance mode on a real core: what it refuses, skips and pauses, and its hooks. */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { call, makeEnv, signUp, type TestEnv } from "../../tests/harness";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

test(
  "writes answer 503 with Retry-After, reads answer; bookkeeping is skipped; the jobs " +
    "worker takes nothing; core.tx refuses only while writes are held",
  async () => {
    const owner = await signUp(env, "owner@example.com");
    const ran: string[] = [];
    env.core.jobs.define("test.job", { run: () => void ran.push("ran") });
    const entered: string[] = [];
    env.core.maintenance.onEnter(() => entered.push("entered"));
    env.core.maintenance.enter("restore", 42, Date.now());
    expect(entered).toEqual(["entered"]);

    const write = await call(env, "POST", "/api/spaces", { as: owner, body: { key: "DOCS", name: "Docs" } });
    expect([write.status, write.body.code, write.headers.get("retry-after")]).toEqual([503, "maintenance", "42"]);
    expect((await call(env, "GET", "/api/spaces", { as: owner })).status).toBe(200);
    expect(env.core.bookkeeping(() => "written")).toBeUndefined();

    // Still allowed before the swap (the restore's own safety-backup event), refused while it runs.
    env.core.tx(() => env.core.jobs.enqueue("test.job", {}));
    const release = env.core.maintenance.holdWrites();
    expect(() => env.core.tx(() => 1)).toThrow("restore");
    release();
    await env.core.jobs.runDue();
    expect(ran).toEqual([]);

    const replaced: string[] = [];
    env.core.onDataReplaced(() => replaced.push("again"));
    env.core.maintenance.leave();
    env.core.maintenance.dataReplaced(() => {});
    expect(replaced).toEqual(["again"]);
    await env.core.jobs.runDue();
    expect(ran).toEqual(["ran"]);
    expect(env.core.bookkeeping(() => "written")).toBe("written");
    expect((await call(env, "POST", "/api/spaces", { as: owner, body: { key: "DOCS", name: "Docs" } })).status).toBe(201);
  },
);
