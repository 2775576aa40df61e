/**
 * The one scheduler of an instance (docs/architecture.md, "Background work"): every piece of
 * background work is a named task here, listed in GET /api/admin/about (when it runs, its last
 * run, last error and next run) and stopped in one order at close: timers (STOP.timers), then
 * work in flight is aborted (STOP.work), then what waits in memory is written (STOP.flush).
 * Timers are unref'd and armed only when there is work, so an idle server wakes no more than its
 * tasks' periods ask. A task that throws keeps its error, is logged, and runs at its next time.
 */
import type { Clock } from "./clock";
import { iso } from "./clock";
import type { Logger } from "./log";

export const STOP = { timers: 1, work: 2, flush: 3 } as const;

export interface TaskView {
  name: string;
  kind: "every" | "cron" | "write-behind" | "runs";
  /** When it runs: "every 5 s", the cron expression, "at most 60 s after a change". */
  when: string;
  stopOrder: number;
  running: boolean;
  runs: number;
  lastRunAt: string | null;
  lastError: { at: string; message: string } | null;
  nextRunAt: string | null;
}

export interface Task {
  /** Runs as soon as the current work allows (after the run in progress, if any). */
  soon(): void;
  /** Works out the next run again (a cron whose expression changed). */
  rearm(): void;
  stop(): void;
  readonly nextRunAt: number | null;
}

export interface TaskOptions {
  stopOrder?: number;
  /** Called once at shutdown, in the task's stop order, after its timer is cleared. */
  onStop?(): void;
  /** The first run (default: one period from now). */
  firstInMs?: number;
}

export interface WriteBehind<K, V> {
  add(key: K, value: V): void;
  /** Writes what waits now (a reader that needs it written first); throws what the write threw. */
  flush(): void;
  /** What waits; its owner may change an entry in place (a count on the hot path). */
  readonly pending: Map<K, V>;
  /** Forgets what waits (the data it counted was replaced by a restore). */
  clear(): void;
}

/** The next time `expr` fires after `after` (ms), in local time; null when it never fires or is not one. */
export function nextCronRun(expr: string, after: number): number | null {
  try {
    return Bun.cron.parse(expr, after)?.getTime() ?? null;
  } catch {
    return null;
  }
}

const MAX_DELAY_MS = 2 ** 31 - 1;

interface Entry {
  view(): TaskView;
  stop(): void;
}

export interface Scheduler {
  every(name: string, ms: number, fn: () => unknown, opts?: TaskOptions): Task;
  /** `expr` may be read anew at each arming (a policy the admin changes); null: not scheduled. */
  cron(name: string, expr: string | (() => string | null), fn: () => unknown, opts?: TaskOptions): Task;
  writeBehind<K, V>(name: string, ms: number, how: { merge(old: V, added: V): V; write(batch: Map<K, V>): void }): WriteBehind<K, V>;
  /** A task whose state is kept elsewhere (the in-process runs, the jobs' schedules): listed, and stopped in order. */
  track(name: string, view: () => TaskView, stop: () => void): void;
  list(): TaskView[];
  stop(): void;
}

export function createScheduler(host: { clock: Clock; log: Logger }): Scheduler {
  const entries = new Map<string, Entry>();
  let stopped = false;

  // A name declared again replaces the task that had it (stopped first): one task per name.
  const add = (name: string, entry: Entry) => {
    entries.get(name)?.stop();
    entries.set(name, entry);
  };
  const failed = (view: TaskView, err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    view.lastError = { at: iso(host.clock.now()), message };
    host.log.error(`${view.name} failed`, { error: err instanceof Error ? (err.stack ?? message) : message });
  };

  /** `next`: when it runs next (ms since the epoch), or null. */
  function timed(view: TaskView, fn: () => unknown, next: () => number | null, opts: TaskOptions): Task {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let at: number | null = null;
    let again = false;
    let done = false;
    const arm = (when: number | null) => {
      if (timer) clearTimeout(timer);
      timer = null;
      at = when;
      view.nextRunAt = when === null ? null : iso(when);
      if (when === null || done) return;
      timer = setTimeout(
        () => {
          timer = null;
          // A wait past setTimeout's limit arrives early: armed again.
          if (Date.now() < when - 1) arm(when);
          else void run();
        },
        Math.min(Math.max(when - Date.now(), 0), MAX_DELAY_MS),
      );
      timer.unref?.();
    };
    const run = async () => {
      view.running = true;
      view.runs++;
      view.lastRunAt = iso(host.clock.now());
      try {
        await fn();
      } catch (err) {
        if (!done) failed(view, err);
      } finally {
        view.running = false;
        if (!done) arm(again ? Date.now() : next());
        again = false;
      }
    };
    const task: Task = {
      soon() {
        if (view.running) again = true;
        else arm(Date.now());
      },
      rearm: () => view.running || arm(next()),
      stop() {
        if (done) return;
        done = true;
        arm(null);
        // Stopped by its owner: no longer listed, and its name may be declared again.
        if (entries.get(view.name)?.stop === task.stop) entries.delete(view.name);
        opts.onStop?.();
      },
      get nextRunAt() {
        return at;
      },
    };
    add(view.name, { view: () => ({ ...view }), stop: task.stop });
    arm(opts.firstInMs === undefined ? next() : Date.now() + opts.firstInMs);
    return task;
  }

  const blank = (name: string, kind: TaskView["kind"], when: string, stopOrder: number): TaskView => ({
    name,
    kind,
    when,
    stopOrder,
    running: false,
    runs: 0,
    lastRunAt: null,
    lastError: null,
    nextRunAt: null,
  });

  return {
    every(name, ms, fn, opts = {}) {
      const view = blank(name, "every", `every ${ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`}`, opts.stopOrder ?? STOP.timers);
      return timed(view, fn, () => Date.now() + ms, opts);
    },
    cron(name, expr, fn, opts = {}) {
      const read = typeof expr === "string" ? () => expr : expr;
      const view = blank(name, "cron", "", opts.stopOrder ?? STOP.timers);
      const next = () => {
        const e = read();
        view.when = e ?? "not scheduled";
        return e ? nextCronRun(e, Date.now()) : null;
      };
      return timed(view, fn, next, opts);
    },
    writeBehind<K, V>(name: string, ms: number, how: { merge(old: V, added: V): V; write(batch: Map<K, V>): void }): WriteBehind<K, V> {
      const view = blank(name, "write-behind", `at most ${ms / 1000} s after a change`, STOP.flush);
      let pending = new Map<K, V>();
      let timer: ReturnType<typeof setTimeout> | null = null;
      const flush = () => {
        if (timer) clearTimeout(timer);
        timer = null;
        view.nextRunAt = null;
        if (pending.size === 0) return;
        const batch = pending;
        pending = new Map();
        view.runs++;
        view.lastRunAt = iso(host.clock.now());
        try {
          how.write(batch);
        } catch (err) {
          // Kept for the next write: one failed transaction drops nothing counted.
          for (const [k, v] of batch) wb.add(k, v);
          throw err;
        }
      };
      const wb: WriteBehind<K, V> = {
        add(key, value) {
          const old = pending.get(key);
          pending.set(key, old === undefined ? value : how.merge(old, value));
          if (timer || stopped) return;
          view.nextRunAt = iso(host.clock.now() + ms);
          timer = setTimeout(quietly, ms);
          timer.unref?.();
        },
        flush,
        get pending() {
          return pending;
        },
        clear() {
          pending.clear();
        },
      };
      const quietly = () => {
        try {
          flush();
        } catch (err) {
          failed(view, err);
        }
      };
      add(name, { view: () => ({ ...view }), stop: quietly });
      return wb;
    },
    track(name, view, stop) {
      add(name, { view, stop });
    },
    list() {
      return [...entries.values()].map((e) => e.view()).sort((a, b) => a.stopOrder - b.stopOrder || a.name.localeCompare(b.name));
    },
    stop() {
      if (stopped) return;
      stopped = true;
      const all = [...entries.values()].map((e) => [e.view().stopOrder, e.stop] as const);
      for (const [, stop] of all.sort((a, b) => a[0] - b[0])) stop();
    },
  };
}
