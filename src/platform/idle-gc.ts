/**
 * Gives memory back once the server goes quiet. Signing in alone (argon2id, 19 MiB) or an
 * upload leaves garbage that JavaScriptCore collects only when it next needs room, so an idle
 * server kept ~10 MB more than it uses: on a Raspberry Pi that is worth one full collection
 * (a few milliseconds) after each burst of work, never while requests are coming in.
 */
import { systemClock } from "./clock";
import { jitAtNormalPolicy } from "./jit-policy";
import { silentLogger } from "./log";
import { createScheduler, type Scheduler } from "./scheduler";

const QUIET_MS = 1_000;
/** Requests before any quiet moment that make a busy server: the JIT's normal policy then. */
const BUSY_FROM_START = 200;

/**
 * The first quiet moment after start (the rest of the server loaded, the first requests
 * answered) also gives back what start-up alone left: JavaScriptCore's compiled code for the
 * start's one-off work (migrations, composing routes) and the allocator's free pages (~4 MB of
 * an idle server's memory). Only once: doing it after every burst would throw away the request
 * path's compiled code each time, and its next requests would compile it again. Start-up ends
 * there for the JIT too (jit-policy.ts), or at BUSY_FROM_START requests without a quiet moment.
 */
export function collectWhenIdle(
  scheduler: Scheduler = createScheduler({ clock: systemClock, log: silentLogger }),
  atFirstQuiet: () => void = () => {},
): { touch(): void; stop(): void } {
  let worked = false;
  let lastRequestAt = 0;
  let shrunk = false;
  let touches = 0;
  const task = scheduler.every("idle-gc", QUIET_MS, () => {
    if (worked && performance.now() - lastRequestAt >= QUIET_MS) {
      worked = false;
      Bun.gc(true);
      if (!shrunk) {
        shrunk = true;
        atFirstQuiet();
        // Deprecated in Bun's types, still its only way to ask for this; it runs when JSC is idle.
        Bun.shrink();
        jitAtNormalPolicy();
      }
    }
  });
  return {
    touch() {
      worked = true;
      lastRequestAt = performance.now();
      if (!shrunk && ++touches === BUSY_FROM_START) jitAtNormalPolicy();
    },
    stop: task.stop,
  };
}
