/**
 * Redelivery: a space admin asks for one delivery to be sent again (the receiver was down, or
 * mishandled it). A NEW delivery row is queued with the same event and the very same payload
 * bytes, due at once; the original stays in the log as it was. Its own id is its webhook-id:
 * automatic retries keep one webhook-id (receivers de-duplicate those), while a redelivery is
 * a deliberate second message the receiver should not drop as a duplicate. Receivers that want
 * to recognise the event itself have `data.eventId`, the same in both.
 */
import { requireAdminSpace } from "../access/spaces";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { requireUser, type Caller } from "../identity/caller";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { AppError, notFound } from "../platform/errors";
import { findSpaceByKey } from "../spaces/service";
import { kick } from "./sender";
import { requireWebhook, toDelivery, type Delivery } from "./service";
import { deliveryById, deliveryOfHook, insertDelivery } from "./store";

/** POST …/webhooks/{id}/deliveries/{deliveryId}/redeliver: answers the new delivery (pending). */
export function redeliver(core: Core, caller: Caller, key: string, hookId: string, deliveryId: string): Delivery {
  const user = requireUser(caller);
  return core.tx(() => {
    const space = requireAdminSpace(core, user, findSpaceByKey(core, key));
    const hook = requireWebhook(core, space.id, hookId);
    // Another webhook's delivery (of this space or any other) is as missing as none.
    const original = deliveryOfHook(core, hook.id, deliveryId);
    if (!original) throw notFound("Delivery not found");
    // Nothing sends for a hook that is off: the copy would wait for ever (or go out by surprise
    // when it is switched on).
    if (!hook.enabled) throw new AppError("conflict", { detail: "The webhook is switched off: switch it on to send deliveries again." });
    const id = newId();
    const now = iso(core.clock.now());
    insertDelivery(core, {
      id,
      webhookId: hook.id,
      eventId: original.eventId,
      eventType: original.eventType,
      payload: original.payload,
      status: "pending",
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    });
    recordEvent(core, {
      type: "webhook.redelivered",
      targetType: "webhook",
      targetId: hook.id,
      spaceId: space.id,
      actorId: user.user.id,
      data: { url: hook.url, deliveryId: original.id, newDeliveryId: id, eventType: original.eventType },
      ip: user.ip,
    });
    // Sent at once, like a first attempt: the kick waits for the commit (none after a rollback).
    kick(core);
    return toDelivery(deliveryById(core, id)!, []);
  });
}
