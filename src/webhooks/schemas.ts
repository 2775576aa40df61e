import { t } from "elysia";
import { MAX_URL_LENGTH, WEBHOOK_EVENT_TYPES } from "./service";

const Timestamp = t.String({ format: "date-time" });

export const Webhook = t.Object(
  {
    id: t.String(),
    url: t.String(),
    events: t.Array(t.String(), { description: `Event types, or ["*"] for all: ${WEBHOOK_EVENT_TYPES.join(", ")}` }),
    enabled: t.Boolean({ description: "False once switched off, by an admin or by Cairn after 20 failed attempts in a row" }),
    consecutiveFailures: t.Integer({ description: "Failed attempts in a row; a success resets it" }),
    disabledAt: t.Nullable(Timestamp),
    createdById: t.Nullable(t.String()),
    createdAt: Timestamp,
  },
  { title: "Webhook" },
);

export const CreatedWebhook = t.Composite(
  [Webhook, t.Object({ secret: t.String({ description: "whsec_… signing secret (Standard Webhooks); shown only in this answer" }) })],
  { title: "CreatedWebhook" },
);

export const CreateWebhookBody = t.Object({
  url: t.String({
    maxLength: MAX_URL_LENGTH,
    description: "http or https; private and loopback addresses are refused at delivery unless allowed by CAIRN_OUTBOUND_ALLOW",
  }),
  events: t.Union([t.Array(t.String({ maxLength: 100 }), { maxItems: 50 }), t.String({ maxLength: 2000 })], {
    description: `Event types as an array or a comma-separated string; "*" for all. Known: ${WEBHOOK_EVENT_TYPES.join(", ")}`,
    error: "must be a list of event types or a comma-separated string",
  }),
});

export const WebhookParams = t.Object({
  key: t.String({ minLength: 1, maxLength: 100, description: "Space key (any case)" }),
  id: t.String({ minLength: 1, maxLength: 100, description: "Webhook id" }),
});

export const DeliveryParams = t.Object({
  key: t.String({ minLength: 1, maxLength: 100, description: "Space key (any case)" }),
  id: t.String({ minLength: 1, maxLength: 100, description: "Webhook id" }),
  deliveryId: t.String({ minLength: 1, maxLength: 100, description: "Delivery id (one of this webhook's)" }),
});

export const UpdateWebhookBody = t.Object({
  enabled: t.Boolean({
    description:
      "false switches the webhook off (its waiting deliveries are abandoned); true switches it on again and resets its failure count",
    error: "must be true or false",
  }),
});

export const WebhookEvent = t.Object(
  {
    type: t.UnionEnum(WEBHOOK_EVENT_TYPES, { description: "The name to subscribe to" }),
    description: t.String({ description: "What happened, in plain words" }),
  },
  { title: "WebhookEvent" },
);

const Attempt = t.Object(
  {
    attempt: t.Integer({ description: "1 for the first attempt" }),
    startedAt: Timestamp,
    statusCode: t.Nullable(t.Integer({ description: "null when there was no answer (refused, time-out, network)" })),
    error: t.Nullable(t.String()),
    durationMs: t.Integer(),
    responseSnippet: t.Nullable(t.String({ description: "The first 1 KB of the answer" })),
  },
  { title: "WebhookAttempt" },
);

export const Delivery = t.Object(
  {
    id: t.String({ description: "Also the webhook-id header, the same on every retry" }),
    eventId: t.String(),
    eventType: t.String(),
    status: t.Union([t.Literal("pending"), t.Literal("failed"), t.Literal("succeeded"), t.Literal("abandoned")], {
      description:
        "pending: not tried yet; failed: will be retried at nextAttemptAt; succeeded; " +
        "abandoned: out of attempts or the webhook was switched off",
    }),
    attempts: t.Integer(),
    nextAttemptAt: t.Nullable(Timestamp),
    lastStatusCode: t.Nullable(t.Integer()),
    lastError: t.Nullable(t.String()),
    lastDurationMs: t.Nullable(t.Integer()),
    lastResponseSnippet: t.Nullable(t.String()),
    payload: t.Unknown({ description: "The body sent: {type, timestamp, data}" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    log: t.Array(Attempt),
  },
  { title: "WebhookDelivery" },
);
