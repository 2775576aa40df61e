/**
 * Maintenance mode: the data is about to be replaced (a restore), so nothing may write to it.
 *
 * While it is on:
 * - every request that writes answers 503 `maintenance` with Retry-After (the HTTP pipeline
 *   asks `active()`); reads keep working on the main connection;
 * - while the swap itself runs (`holdWrites()`), core.tx() refuses too: a write from a timer
 *   must not wait on the lock the restore holds (busy_timeout would stall the event loop) nor
 *   be lost under the restored rows. Before that, the restore's own writes (its safety
 *   backup's audit event) still go through;
 * - bookkeeping writes (session sliding, token use, page-view counts) are skipped;
 * - the jobs worker takes no new job;
 * - `onEnter` hooks run once, synchronously, while writes are still allowed: collaboration saves
 *   and closes its rooms there.
 * Once the restored data is in, `dataReplaced()` runs the `onDataReplaced` hooks: in-memory
 * state that would otherwise describe the old data starts again from the new.
 *
 * The flag lives in memory only: a restart always comes back out of maintenance (the restore
 * state machine on disk says what became of an interrupted restore).
 */
export interface MaintenanceState {
  reason: string;
  since: number;
  retryAfterSeconds: number;
}

export interface Maintenance {
  active(): boolean;
  state(): MaintenanceState | null;
  /** Turns maintenance on (runs the onEnter hooks first, with writes still allowed). */
  enter(reason: string, retryAfterSeconds: number, now: number): void;
  leave(): void;
  /** From now until the returned function is called (or leave()), core.tx() refuses. */
  holdWrites(): () => void;
  /** True while core.tx() must refuse (the swap runs). */
  writesHeld(): boolean;
  onEnter(fn: () => void): void;
  onDataReplaced(fn: () => void): void;
  /** The data was replaced under the running process: every onDataReplaced hook runs (each on its own). */
  dataReplaced(onError: (err: unknown) => void): void;
}

export function createMaintenance(): Maintenance {
  let current: MaintenanceState | null = null;
  let held = false;
  const enterHooks: Array<() => void> = [];
  const replacedHooks: Array<() => void> = [];
  const m: Maintenance = {
    active: () => current !== null,
    state: () => current,
    enter(reason, retryAfterSeconds, now) {
      if (current) throw new Error("maintenance is already on");
      // Hooks first, with writes allowed (rooms save their last keystrokes), then the flag.
      for (const fn of enterHooks) fn();
      current = { reason, since: now, retryAfterSeconds };
    },
    leave() {
      current = null;
      held = false;
    },
    holdWrites() {
      held = true;
      return () => void (held = false);
    },
    writesHeld: () => held,
    onEnter: (fn) => void enterHooks.push(fn),
    onDataReplaced: (fn) => void replacedHooks.push(fn),
    dataReplaced(onError) {
      for (const fn of replacedHooks) {
        try {
          fn();
        } catch (err) {
          onError(err);
        }
      }
    },
  };
  return m;
}
