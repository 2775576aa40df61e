import { requireAdminSpace, spaceArchived } from "../access/spaces";
import { requireUser, type Caller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent, type EventType } from "../events/outbox";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { invalid, notFound } from "../platform/errors";
import { checkOutboundUrl } from "../platform/outbound";
import { findSpaceByKey } from "../spaces/service";
import { newWebhookSecret } from "./signer";
import {
  abandonWaiting,
  attemptsOf,
  deleteWebhookRow,
  hooksOfSpace,
  insertWebhook,
  recentDeliveries,
  setHookEnabled,
  webhookById,
  webhookInSpace,
} from "./store";
import type { AttemptRow, DeliveryRow, WebhookRow } from "./tables";

/**
 * The event types a webhook can subscribe to (docs/decisions.md, "Standard Webhooks"), with what
 * each means in plain words (GET /api/webhooks/events: the web UI lists them from there); "*" means
 * all of them.
 */
export const WEBHOOK_EVENTS = [
  { type: "page.created", description: "A page is published" },
  { type: "page.updated", description: "A page is updated" },
  { type: "page.moved", description: "A page is moved" },
  { type: "page.trashed", description: "A page is moved to the trash" },
  { type: "page.restored", description: "A page is restored" },
  { type: "page.purged", description: "A page is deleted for good" },
  { type: "comment.created", description: "A comment is written" },
  { type: "comment.resolved", description: "A comment is resolved" },
  { type: "attachment.created", description: "A file is attached" },
  { type: "label.added", description: "A label is added" },
  { type: "label.removed", description: "A label is removed" },
  { type: "space.updated", description: "The space's settings change" },
] as const satisfies ReadonlyArray<{ type: EventType; description: string }>; // each one an event the outbox records (typo: a type error)

export const WEBHOOK_EVENT_TYPES = WEBHOOK_EVENTS.map((e) => e.type) as [WebhookEventType, ...WebhookEventType[]];
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number]["type"];

export const MAX_URL_LENGTH = 2048;
/** The delivery log answers the most recent ones only. */
export const DELIVERY_LIST_LIMIT = 200;

/**
 * A webhook as the API answers it (docs/api.md, "Response shapes"). The secret is never part
 * of it (shown once, at creation).
 */
export function toWebhook(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    consecutiveFailures: row.consecutiveFailures,
    disabledAt: row.disabledAt,
    createdById: row.createdById,
    createdAt: row.createdAt,
  };
}

export type Webhook = ReturnType<typeof toWebhook>;

/** Syntax only: http(s), a host, no credentials (the list shows the URL to every space admin). */
export function cleanUrl(raw: string): string {
  const text = raw.trim();
  if (!text) throw invalid("url", "must not be blank");
  if (text.length > MAX_URL_LENGTH) throw invalid("url", `must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = checkOutboundUrl(text);
  } catch (err) {
    const reason = (err as Error).message.replace(/^bad URL: /, "");
    throw invalid(
      "url",
      reason === "not an absolute URL" ? "must be an absolute http or https URL, such as https://example.com/hooks" : reason,
    );
  }
  if (url.href.length > MAX_URL_LENGTH) throw invalid("url", `must be at most ${MAX_URL_LENGTH} characters`);
  return url.href;
}

/** An array or a comma-separated string; known names only; "*" stands for all. */
export function cleanEvents(input: string[] | string): string[] {
  const names = (Array.isArray(input) ? input : input.split(",")).map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw invalid("events", `must name at least one event type, or "*" for all`);
  const known = new Set<string>(WEBHOOK_EVENT_TYPES);
  const unknown = names.filter((n) => n !== "*" && !known.has(n));
  if (unknown.length)
    throw invalid(
      "events",
      `name an unknown event type: ${unknown.map((n) => JSON.stringify(n)).join(", ")}; known: ${WEBHOOK_EVENT_TYPES.join(", ")} or "*"`,
    );
  if (names.includes("*")) return ["*"];
  return [...new Set(names)];
}

export function listWebhooks(core: Core, caller: Caller, key: string): Webhook[] {
  const space = requireAdminSpace(core, requireUser(caller), findSpaceByKey(core, key));
  return hooksOfSpace(core, space.id).map(toWebhook);
}

export interface CreateWebhookInput {
  url: string;
  events: string[] | string;
}

/** POST /api/spaces/{key}/webhooks: answers the webhook plus its secret, the only time it is shown. */
export function createWebhook(core: Core, caller: Caller, key: string, input: CreateWebhookInput): Webhook & { secret: string } {
  const user = requireUser(caller);
  const url = cleanUrl(input.url);
  const events = cleanEvents(input.events);
  return core.tx(() => {
    const space = requireAdminSpace(core, user, findSpaceByKey(core, key));
    if (space.archivedAt) throw spaceArchived();
    const id = newId();
    const secret = newWebhookSecret();
    insertWebhook(core, { id, spaceId: space.id, url, events, secret, createdById: user.user.id, createdAt: iso(core.clock.now()) });
    recordEvent(core, {
      type: "webhook.created",
      targetType: "webhook",
      targetId: id,
      spaceId: space.id,
      actorId: user.user.id,
      data: { url, events },
      ip: user.ip,
    });
    const row = webhookById(core, id)!;
    return { ...toWebhook(row), secret };
  });
}

/** The space's webhook with that id, or 404 (another space's webhook is as missing as none). */
export function requireWebhook(core: Core, spaceId: string, id: string): WebhookRow {
  const row = webhookInSpace(core, spaceId, id);
  if (!row) throw notFound("Webhook not found");
  return row;
}

/** DELETE: the webhook and its delivery log go; deliveries not yet sent are dropped with it. */
export function deleteWebhook(core: Core, caller: Caller, key: string, id: string): void {
  const user = requireUser(caller);
  core.tx(() => {
    const space = requireAdminSpace(core, user, findSpaceByKey(core, key));
    const hook = requireWebhook(core, space.id, id);
    deleteWebhookRow(core, hook.id);
    recordEvent(core, {
      type: "webhook.deleted",
      targetType: "webhook",
      targetId: hook.id,
      spaceId: space.id,
      actorId: user.user.id,
      data: { url: hook.url },
      ip: user.ip,
    });
  });
}

/**
 * PUT …/webhooks/{id} {enabled}: an admin switches a hook off (its waiting deliveries are
 * abandoned, as when Cairn switches it off) or on again (its failure count starts from zero,
 * so one more failure does not switch it straight back off). The same state again changes
 * nothing and records nothing.
 */
export function setWebhookEnabled(core: Core, caller: Caller, key: string, id: string, input: { enabled: unknown }): Webhook {
  const user = requireUser(caller);
  if (typeof input.enabled !== "boolean") throw invalid("enabled", "must be true or false");
  const enabled = input.enabled;
  return core.tx(() => {
    const space = requireAdminSpace(core, user, findSpaceByKey(core, key));
    const hook = requireWebhook(core, space.id, id);
    if (hook.enabled === enabled) return toWebhook(hook);
    const now = iso(core.clock.now());
    setHookEnabled(core, hook.id, enabled, now);
    if (!enabled) abandonWaiting(core, hook.id, now);
    recordEvent(core, {
      type: "webhook.updated",
      targetType: "webhook",
      targetId: hook.id,
      spaceId: space.id,
      actorId: user.user.id,
      data: { url: hook.url, enabled },
      ip: user.ip,
    });
    return toWebhook(webhookById(core, hook.id)!);
  });
}

function toAttempt(row: AttemptRow) {
  return {
    attempt: row.attempt,
    startedAt: row.startedAt,
    statusCode: row.statusCode,
    error: row.error,
    durationMs: row.durationMs,
    responseSnippet: row.responseSnippet,
  };
}

export function toDelivery(row: DeliveryRow, attempts: AttemptRow[]) {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    lastDurationMs: row.lastDurationMs,
    lastResponseSnippet: row.lastResponseSnippet,
    payload: JSON.parse(row.payload) as unknown,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    log: attempts.map(toAttempt),
  };
}

export type Delivery = ReturnType<typeof toDelivery>;

/** GET …/webhooks/{id}/deliveries: newest first, at most 200, each with its attempts. */
export function listDeliveries(core: Core, caller: Caller, key: string, id: string): Delivery[] {
  const space = requireAdminSpace(core, requireUser(caller), findSpaceByKey(core, key));
  const hook = requireWebhook(core, space.id, id);
  const rows = recentDeliveries(core, hook.id, DELIVERY_LIST_LIMIT);
  const attempts = new Map<string, AttemptRow[]>();
  for (let i = 0; i < rows.length; i += 100) {
    const ids = rows.slice(i, i + 100).map((r) => r.id);
    for (const a of attemptsOf(core, ids)) {
      (attempts.get(a.deliveryId) ?? attempts.set(a.deliveryId, []).get(a.deliveryId)!).push(a);
    }
  }
  return rows.map((r) => toDelivery(r, attempts.get(r.id) ?? []));
}
