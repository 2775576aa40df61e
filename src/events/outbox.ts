/**
 * The event outbox: how a change tells the rest of Cairn (notifications, webhooks, audit,
 * collaboration…) that it happened.
 *
 * Writing: a service calls `recordEvent(core, …)` INSIDE the transaction of the change, so the
 * event row commits or rolls back with it. A change that fails records nothing; a change that
 * commits always has its rows.
 *
 * Reading: a consumer registers with `onEvents(core, name, handle)`. After a transaction that
 * recorded events has committed (core.afterCommit), the dispatcher hands each consumer the
 * rows after its cursor, in seq order, and moves the cursor forward in the same transaction as
 * whatever the consumer wrote. Cursors live in `event_cursors`, so a consumer that was down
 * (crash, restart) catches up on registration, and a consumer that throws is retried on the
 * next dispatch: delivery is at least once, and exactly once for a consumer that only writes to
 * the database.
 *
 * Consumers run synchronously inside their own transaction; anything slow or remote (sending a
 * webhook) should queue a row here and do the network part afterwards.
 */
import type { Core } from "../core";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { cursorOf, eventsAfter, insertEvent, moveCursor, startCursor } from "./store";
import type { events } from "./tables";
import type { EventType, TargetType } from "../common/events";

// The names are shared with the web UI (src/common/events.ts: the audit log's picker, webhooks).
export { EVENT_TYPES, TARGET_TYPES, type EventType, type TargetType } from "../common/events";

export interface NewEvent {
  type: EventType;
  targetType: TargetType;
  targetId: string;
  spaceId: string | null;
  actorId: string | null;
  /**
   * Never secrets: no passwords, token or invite values, cookies, hashes. The audit log copies
   * it (and redacts keys that look secret, as a second line of defence).
   */
  data?: Record<string, unknown>;
  /** The caller's address (caller.ip), for the audit log; not stored in the outbox row. */
  ip?: string | null;
  /**
   * A page event's document as the change left it, when the service has it at hand, for the
   * notification fan-out's mentions (otherwise read again from the page); not stored either.
   */
  document?: string;
  /**
   * The page and its space as the change left them (a page event, when the service has them at
   * hand), so the fan-out does not read the row it has just written again; not stored either.
   * Typed loosely: the outbox knows no domain; the fan-out names the shapes.
   */
  page?: { page: object; space: object };
}

export type EventRow = typeof events.$inferSelect;

export type EventConsumer = (core: Core, batch: EventRow[]) => void;

/**
 * Runs inside the change's transaction, once per recorded event (audit entries, delivery rows).
 * `input` is what the service passed, including what the outbox row does not keep (the ip).
 */
export type EventRecorder = (core: Core, event: EventRow, input: NewEvent) => void;

interface Registry {
  consumers: Map<string, EventConsumer>;
  recorders: EventRecorder[];
  scheduled: boolean;
}

const registries = new WeakMap<Core, Registry>();

function registryOf(core: Core): Registry {
  let r = registries.get(core);
  if (!r) registries.set(core, (r = { consumers: new Map(), recorders: [], scheduled: false }));
  return r;
}

/**
 * Records one event. Must run inside the change's transaction (throws otherwise). The
 * in-transaction recorders (onEventRecorded) see it at once, so what they write (an audit
 * entry, webhook delivery rows) commits or rolls back with the change.
 */
export function recordEvent(core: Core, event: NewEvent): void {
  if (!core.inTx()) throw new Error(`recordEvent(${event.type}) must be called inside core.tx()`);
  const data = event.data ?? {};
  const values = {
    id: newId(),
    type: event.type,
    targetType: event.targetType,
    targetId: event.targetId,
    spaceId: event.spaceId,
    actorId: event.actorId,
    data,
    createdAt: iso(core.clock.now()),
  };
  // The row as stored, without reading it back (RETURNING and drizzle's mapping of it cost more
  // than the insert): seq is the rowid, data as a reader would parse it from its JSON text.
  const row: EventRow = { ...values, seq: insertEvent(core, values), data: JSON.parse(JSON.stringify(data)) };
  for (const recorder of registryOf(core).recorders) recorder(core, row, event);
  scheduleDispatch(core);
}

/** Registers a function run inside the transaction of every recorded event. */
export function onEventRecorded(core: Core, recorder: EventRecorder): void {
  registryOf(core).recorders.push(recorder);
}

/**
 * Registers a named consumer. A name seen for the first time starts at the current end of the
 * outbox (`from: "now"`, the default) or at its beginning (`from: "start"`); a known name
 * resumes from its stored cursor. Answers a function that unregisters it.
 */
export function onEvents(core: Core, name: string, handle: EventConsumer, opts: { from?: "now" | "start" } = {}): () => void {
  core.tx(() => startCursor(core, name, opts.from ?? "now", iso(core.clock.now())));
  const registry = registryOf(core);
  registry.consumers.set(name, handle);
  scheduleDispatch(core);
  return () => {
    if (registry.consumers.get(name) === handle) registry.consumers.delete(name);
  };
}

function scheduleDispatch(core: Core): void {
  const registry = registryOf(core);
  if (registry.consumers.size === 0) return;
  core.afterCommit(() => {
    if (registry.scheduled) return;
    registry.scheduled = true;
    queueMicrotask(() => {
      registry.scheduled = false;
      dispatchEvents(core);
    });
  });
}

const BATCH = 500;

/**
 * Hands every consumer the committed rows after its cursor. Safe to call at any time (tests and
 * a start-up catch-up call it directly); it never runs inside someone else's transaction.
 */
export function dispatchEvents(core: Core): void {
  if (core.inTx()) {
    // Called from inside a transaction (a nested flow): again once it has committed.
    core.afterCommit(() => dispatchEvents(core));
    return;
  }
  for (const [name, handle] of registryOf(core).consumers) {
    try {
      for (;;) {
        const handled = core.tx(() => {
          const batch = eventsAfter(core, cursorOf(core, name), BATCH);
          if (batch.length === 0) return 0;
          handle(core, batch);
          moveCursor(core, name, batch[batch.length - 1].seq, iso(core.clock.now()));
          return batch.length;
        });
        if (handled < BATCH) break;
      }
    } catch (err) {
      // The cursor did not move (the transaction rolled back): the rows come again next time.
      core.log.error("event consumer failed", { consumer: name, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    }
  }
}
