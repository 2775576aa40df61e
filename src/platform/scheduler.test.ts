/**
 * The scheduler on real timers (short periods): tasks run, never overlap, keep their last error
 * and run again; cron tasks follow their expression; write-behind counts are written together,
 * kept after a failed write, and written at shutdown; stop() goes in its order.
 */
import { expect, test } from "bun:test";
import { systemClock } from "./clock";
import type { Logger } from "./log";
import { createScheduler, nextCronRun, STOP } from "./scheduler";
import { createRuns } from "./scheduler-runs";

const logged: string[] = [];
const log: Logger = { info() {}, warn() {}, error: (msg) => void logged.push(msg) };
const make = () => createScheduler({ clock: systemClock, log });
const until = async (ok: () => boolean, ms = 2_000) => {
  for (const end = Date.now() + ms; !ok() && Date.now() < end; ) await Bun.sleep(5);
  expect(ok()).toBe(true);
};

test("every: runs each period after the last run settled, never two at once", async () => {
  const s = make();
  let active = 0;
  let most = 0;
  let runs = 0;
  s.every("slow", 10, async () => {
    most = Math.max(most, ++active);
    await Bun.sleep(30);
    active--;
    runs++;
  });
  await until(() => runs >= 3);
  expect(most).toBe(1);
  const [view] = s.list();
  expect(view).toMatchObject({ name: "slow", kind: "every", when: "every 10 ms", stopOrder: STOP.timers, lastError: null });
  expect(view.lastRunAt).not.toBeNull();
  s.stop();
});

test("a task that throws keeps its last error, is logged, and runs again at its next time", async () => {
  const s = make();
  let tries = 0;
  s.every("flaky", 10, () => {
    if (++tries === 1) throw new Error("the disk is full");
  });
  await until(() => tries >= 3);
  const [view] = s.list();
  expect(view.lastError?.message).toBe("the disk is full");
  expect(view.nextRunAt).not.toBeNull();
  expect(logged).toContain("flaky failed");
  s.stop();
});

test("soon(): a run now, or right after the one in progress", async () => {
  const s = make();
  let runs = 0;
  const task = s.every("hourly", 3_600_000, async () => {
    runs++;
    await Bun.sleep(20);
  });
  task.soon();
  await Bun.sleep(5);
  task.soon(); // while the first runs
  await until(() => runs === 2);
  await Bun.sleep(40);
  expect(runs).toBe(2);
  expect(task.nextRunAt).toBeGreaterThan(Date.now() + 3_500_000);
  s.stop();
});

test("cron: the next firing of its expression in local time, read again when re-armed; none when not scheduled", () => {
  const s = make();
  let expr: string | null = "0 3 * * *";
  const task = s.cron(
    "nightly",
    () => expr,
    () => {},
  );
  expect(task.nextRunAt).toBe(nextCronRun("0 3 * * *", Date.now()));
  expect(s.list()[0]).toMatchObject({ kind: "cron", when: "0 3 * * *" });
  expr = "15 4 * * 0";
  task.rearm();
  expect(task.nextRunAt).toBe(nextCronRun("15 4 * * 0", Date.now()));
  expr = null;
  task.rearm();
  expect(task.nextRunAt).toBeNull();
  expect(s.list()[0]).toMatchObject({ when: "not scheduled", nextRunAt: null });
  s.stop();
});

test("write-behind: merged in memory, written together once, kept after a failed write, written at shutdown", async () => {
  const s = make();
  const written: Array<Record<string, number>> = [];
  let fail = true;
  const counts = s.writeBehind<string, number>("counts", 20, {
    merge: (a, b) => a + b,
    write(batch) {
      if (fail) throw new Error("locked");
      written.push(Object.fromEntries(batch));
    },
  });
  counts.add("a", 1);
  counts.add("a", 2);
  counts.add("b", 1);
  expect(s.list()[0].nextRunAt).not.toBeNull();
  expect(() => counts.flush()).toThrow("locked");
  expect(Object.fromEntries(counts.pending)).toEqual({ a: 3, b: 1 }); // nothing counted is dropped
  fail = false;
  counts.add("a", 1);
  await until(() => written.length === 1);
  expect(written).toEqual([{ a: 4, b: 1 }]);
  counts.add("c", 5);
  s.stop();
  expect(written).toEqual([{ a: 4, b: 1 }, { c: 5 }]);
});

test("stop(): timers first, then work in flight, then what waits in memory; each once", () => {
  const s = make();
  const order: string[] = [];
  s.writeBehind<string, number>("counts", 60_000, { merge: (a, b) => a + b, write: () => void order.push("counts written") }).add("x", 1);
  s.every("worker", 60_000, () => {}, { stopOrder: STOP.work, onStop: () => order.push("worker aborted") });
  s.every("retries", 60_000, () => {}, { onStop: () => order.push("retries stopped") });
  s.stop();
  s.stop();
  expect(order).toEqual(["retries stopped", "worker aborted", "counts written"]);
  expect(s.list().map((t) => [t.name, t.stopOrder])).toEqual([["counts", STOP.flush]]);
});

test("a name declared again replaces its task; a task stopped by its owner leaves the list", async () => {
  const s = make();
  let first = 0;
  let second = 0;
  s.every("watch", 10, () => void first++);
  const again = s.every("watch", 10, () => void second++);
  await until(() => second >= 2);
  expect(first).toBe(0);
  expect(s.list().map((t) => t.name)).toEqual(["watch"]);
  again.stop();
  expect(s.list()).toEqual([]);
  s.stop();
});

test("runs: in-process work is listed while it runs, keeps its last error, and is aborted at stop", async () => {
  const s = make();
  const runs = createRuns(s, { clock: systemClock, log });
  const failed = runs.start("backup", async () => {
    throw new Error("no space left");
  });
  expect((await runs.settled(failed.id))?.state).toBe("failed");
  expect(s.list()[0]).toMatchObject({
    name: "runs",
    kind: "runs",
    stopOrder: STOP.work,
    running: false,
    lastError: { message: "no space left" },
  });
  const long = runs.start(
    "restore",
    (job) => new Promise((_, reject) => job.signal.addEventListener("abort", () => reject(job.signal.reason))),
  );
  expect(runs.running("restore")?.id).toBe(long.id);
  expect(s.list()[0]).toMatchObject({ running: true, when: "now: restore" });
  await Bun.sleep(1); // the run has begun
  s.stop();
  expect(await runs.settled(long.id)).toMatchObject({
    state: "cancelled",
    error: { code: "cancelled", message: "the server is stopping" },
  });
});

test(
  "an instance's scheduler: listed tasks, and at close what waits in memory is " + "written in a transaction before the database closes",
  async () => {
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { openInstance } = await import("../instance");
    const { loadConfig } = await import("./config");
    const { silentLogger } = await import("./log");
    const dir = mkdtempSync(join(tmpdir(), "cairn-scheduler-"));
    try {
      const core = openInstance(loadConfig(["--data", dir], {}), { log: silentLogger });
      const written: Array<[string, number, boolean]> = [];
      const counts = core.scheduler.writeBehind<string, number>("test.counts", 60_000, {
        merge: (a, b) => a + b,
        // A write transaction opens only on an open database.
        write: (batch) => core.bookkeeping(() => batch.forEach((n, k) => written.push([k, n, core.inTx()]))),
      });
      counts.add("views", 2);
      counts.add("views", 3);
      expect(core.scheduler.list().map((t) => t.name)).toEqual(expect.arrayContaining(["webhooks.retries", "runs", "test.counts"]));
      expect(core.scheduler.jobs).toBe(core.jobs);
      core.close();
      expect(written).toEqual([["views", 5, true]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
