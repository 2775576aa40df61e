/**
 * Queuing: runs inside the transaction of every recorded event (an onEventRecorded recorder)
 * and writes one pending delivery per enabled webhook of the event's space that subscribes to
 * its type. So a change and its deliveries commit or roll back together; the sender
 * (sender.ts) only ever sends rows that committed.
 */
import type { Core } from "../core";
import type { EventRow, NewEvent } from "../events/outbox";
import { newId } from "../platform/crypto";
import { queueStatements as statements } from "./store";
import { WEBHOOK_EVENT_TYPES } from "./service";

const SENT_TYPES = new Set<string>(WEBHOOK_EVENT_TYPES);

/** The spaces whose webhooks hear this event: its own and, for a move between spaces, the old one. */
function spacesOf(event: EventRow): string[] {
  const ids = event.spaceId ? [event.spaceId] : [];
  const from = (event.data.from as { spaceId?: unknown } | undefined)?.spaceId;
  if (event.type === "page.moved" && typeof from === "string" && !ids.includes(from)) ids.push(from);
  return ids;
}

/**
 * The body sent: {type, timestamp, data} (Standard Webhooks). data names what changed
 * (pageId, spaceId…), the space's key, the actor and the event's own details.
 */
export function payloadOf(core: Core, event: EventRow, input?: NewEvent): string {
  // A page event hands its space as the change left it: its key is not read again.
  const handed = input?.page?.space as { id?: unknown; key?: unknown } | undefined;
  const space = !event.spaceId
    ? null
    : handed?.id === event.spaceId && typeof handed.key === "string"
      ? { key: handed.key }
      : statements(core).spaceKey.get(event.spaceId);
  const data = {
    eventId: event.id,
    [`${event.targetType}Id`]: event.targetId,
    spaceId: event.spaceId,
    spaceKey: space?.key ?? null,
    actorId: event.actorId,
    ...event.data,
  };
  return JSON.stringify({ type: event.type, timestamp: event.createdAt, data });
}

/** Answers how many deliveries it queued. */
export function queueDeliveries(core: Core, event: EventRow, input?: NewEvent): number {
  if (!SENT_TYPES.has(event.type)) return 0;
  const spaceIds = spacesOf(event);
  if (spaceIds.length === 0) return 0;
  const hooks = spaceIds
    .flatMap((id) => statements(core).enabledHooksOf.all(id))
    .filter((h) => {
      const events = JSON.parse(h.events) as string[];
      return events.includes("*") || events.includes(event.type);
    });
  if (hooks.length === 0) return 0;
  const payload = payloadOf(core, event, input);
  // Due at once: the first attempt is made right after the commit (sender.ts). One statement
  // for all the hooks, the payload bound once.
  const rows = JSON.stringify(hooks.map((h) => [newId(), h.id]));
  statements(core).insert.run(event.id, event.type, payload, event.createdAt, rows);
  return hooks.length;
}
