/**
 * Queuing: runs inside the transaction of every recorded event (an onEventRecorded recorder)
 * and writes one pending delivery per enabled webhook of the event's space that subscribes to
 * its type. So a change and its deliveries commit or roll back together; the sender
 * (sender.ts) only ever sends rows that committed.
 */
import { eq } from "drizzle-orm";
import type { Core } from "../core";
import type { EventRow } from "../events/outbox";
import { newId } from "../platform/crypto";
import { perInstance } from "../platform/memo";
import { spaces } from "../spaces/tables";
import { WEBHOOK_EVENT_TYPES } from "./service";
import { webhookDeliveries } from "./tables";

const SENT_TYPES = new Set<string>(WEBHOOK_EVENT_TYPES);

/** Runs for every page and space event, so it is one prepared statement on the space index. */
const enabledHooksOf = perInstance((sqlite: Core["sqlite"]) =>
  sqlite.query<{ id: string; events: string }, [string]>("SELECT id, events FROM webhooks WHERE space_id = ? AND enabled = 1"),
);

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
export function payloadOf(core: Core, event: EventRow): string {
  const space = event.spaceId ? core.db.select({ key: spaces.key }).from(spaces).where(eq(spaces.id, event.spaceId)).get() : undefined;
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
export function queueDeliveries(core: Core, event: EventRow): number {
  if (!SENT_TYPES.has(event.type)) return 0;
  const spaceIds = spacesOf(event);
  if (spaceIds.length === 0) return 0;
  const hooks = spaceIds
    .flatMap((id) => enabledHooksOf(core.sqlite).all(id))
    .filter((h) => {
      const events = JSON.parse(h.events) as string[];
      return events.includes("*") || events.includes(event.type);
    });
  if (hooks.length === 0) return 0;
  const payload = payloadOf(core, event);
  // Due at once: the first attempt is made right after the commit (sender.ts).
  const now = event.createdAt;
  core.db
    .insert(webhookDeliveries)
    .values(hooks.map((h) => ({ id: newId(), webhookId: h.id, eventId: event.id, eventType: event.type, payload, status: "pending" as const, nextAttemptAt: now, createdAt: now, updatedAt: now })))
    .run();
  return hooks.length;
}
