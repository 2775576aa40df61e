/**
 * The jobs module against a real SQLite file, driven by a manual clock: runDue() does what the
 * worker's timer does, so time moves instead of tests sleeping.
 */
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openInstance } from "../../instance";
import type { Core } from "../../core";
import { ManualClock } from "../clock";
import { loadConfig } from "../config";
import { silentLogger } from "../log";

let dir = "";
const open: Core[] = [];
afterEach(() => {
  for (const core of open.splice(0)) core.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = "";
});

function instance(clock: ManualClock): Core {
  dir ||= mkdtempSync(join(tmpdir(), "cairn-jobs-"));
  const core = openInstance(loadConfig(["--data", dir], {}), { clock, log: silentLogger });
  open.push(core);
  return core;
}

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

test("a job enqueued before a restart runs after it, and one cut off mid-run runs again", async () => {
  const clock = new ManualClock(Date.parse("2026-11-24T10:00:00Z"));
  const first = instance(clock);
  first.jobs.define("noop", { run() {} });
  const waiting = first.jobs.enqueue("noop", { n: 1 }, { runAt: clock.now() + 60_000 });
  // A run cut off by a crash: claimed, never settled.
  const hang = deferred();
  first.jobs.define("long", { run: () => hang.promise });
  const cut = first.jobs.enqueue("long", null);
  void first.jobs.runDue();
  await Bun.sleep(5);
  expect(first.jobs.get(cut)!.state).toBe("running");
  expect(first.jobs.get(waiting)!.state).toBe("queued"); // not due before the restart
  first.jobs.stop();
  open.splice(0).forEach((c) => c.close());

  const seen: unknown[] = [];
  clock.advance(60_000);
  const second = instance(clock);
  second.jobs.define("noop", { run: ({ payload }) => void seen.push(payload) });
  second.jobs.define("long", { run: () => {} });
  second.jobs.start(); // the server's worker: queues what the crash left running, then runs what is due
  for (let i = 0; i < 100 && second.jobs.get(cut)!.state !== "succeeded"; i++) await Bun.sleep(10);
  expect(second.jobs.get(cut)).toMatchObject({ state: "succeeded", attempts: 2 });
  expect(second.jobs.get(waiting)!.state).toBe("succeeded");
  expect(seen).toEqual([{ n: 1 }]);
});

test("a failing job is tried again after its backoff, then gives up with its error recorded", async () => {
  const clock = new ManualClock(Date.parse("2026-11-24T10:00:00Z"));
  const core = instance(clock);
  let tries = 0;
  core.jobs.define("flaky", {
    maxAttempts: 3,
    backoffMs: (n) => n * 60_000,
    run: () =>
      void (tries++,
      (() => {
        throw new Error(`no luck ${tries}`);
      })()),
  });
  const id = core.jobs.enqueue("flaky", null);
  await core.jobs.runDue();
  expect(core.jobs.get(id)).toMatchObject({ state: "queued", attempts: 1, error: "no luck 1" });
  await core.jobs.runDue(); // not due yet: the backoff holds it
  expect(tries).toBe(1);
  clock.advance(60_000);
  await core.jobs.runDue();
  expect(core.jobs.get(id)).toMatchObject({ state: "queued", attempts: 2, error: "no luck 2" });
  clock.advance(119_000);
  await core.jobs.runDue();
  expect(tries).toBe(2);
  clock.advance(1_000);
  await core.jobs.runDue();
  expect(core.jobs.get(id)).toMatchObject({ state: "failed", attempts: 3, error: "no luck 3" });
  clock.advance(3_600_000);
  await core.jobs.runDue();
  expect(tries).toBe(3);
});

test("two runs of a single-flight job never overlap; progress is readable while it runs", async () => {
  const clock = new ManualClock(Date.parse("2026-11-24T10:00:00Z"));
  const core = instance(clock);
  let active = 0;
  let most = 0;
  const gate = deferred();
  core.jobs.define("backup", {
    async run({ report }) {
      most = Math.max(most, ++active);
      report(1, 4);
      await gate.promise;
      report(4, 4);
      active--;
    },
  });
  const a = core.jobs.enqueue("backup", null, { key: "backup" });
  const runs = core.jobs.runDue();
  await Bun.sleep(5);
  // Asked again while it runs, and while the worker polls: the same job answers, nothing new starts.
  const b = core.jobs.enqueue("backup", null, { key: "backup" });
  const again = core.jobs.runDue();
  expect(b).toBe(a);
  expect(core.jobs.get(a)).toMatchObject({ state: "running", progress: { done: 1, total: 4 } });
  gate.resolve();
  await Promise.all([runs, again]);
  expect(most).toBe(1);
  expect(core.jobs.get(a)).toMatchObject({ state: "succeeded", progress: { done: 4, total: 4 } });
  // Once it has finished, the key is free again.
  expect(core.jobs.enqueue("backup", null, { key: "backup" })).not.toBe(a);
});

test("a named schedule enqueues its job at each cron time, once", async () => {
  const clock = new ManualClock(Date.parse("2026-11-24T10:00:30Z"));
  const core = instance(clock);
  const ran: string[] = [];
  core.jobs.define("tick", { run: () => void ran.push(new Date(clock.now()).toISOString()) });
  core.jobs.schedule("hourly", "0 * * * *", "tick");
  await core.jobs.runDue();
  expect(ran).toEqual([]);
  clock.advance(59 * 60_000); // 10:59:30
  await core.jobs.runDue();
  expect(ran).toEqual([]);
  clock.advance(30_000); // 11:00:00
  await core.jobs.runDue();
  await core.jobs.runDue();
  expect(ran).toEqual(["2026-11-24T11:00:00.000Z"]);
  clock.advance(3_600_000);
  await core.jobs.runDue();
  expect(ran).toHaveLength(2);
});

test("a job written inside a transaction that rolls back never exists", () => {
  const core = instance(new ManualClock(Date.now()));
  core.jobs.define("noop", { run() {} });
  let id = "";
  expect(() =>
    core.tx(() => {
      id = core.jobs.enqueue("noop", null);
      throw new Error("changed my mind");
    }),
  ).toThrow("changed my mind");
  expect(core.jobs.get(id)).toBeNull();
});
