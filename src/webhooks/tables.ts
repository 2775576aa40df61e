import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { spaces } from "../spaces/tables";
import { users } from "../users/tables";

/**
 * A space's webhook (docs/decisions.md, "Webhooks"): where to send which events, and the signing
 * secret.
 */
export const webhooks = sqliteTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    /** http(s), at most 2048 characters; its addresses are checked at each delivery. */
    url: text("url").notNull(),
    /** Event types, or ["*"] for all of them. */
    events: text("events", { mode: "json" }).$type<string[]>().notNull(),
    /**
     * `whsec_` + base64 of 32 random bytes (Standard Webhooks). Kept as is because every
     * delivery is signed with it; shown to the caller once, at creation.
     */
    secret: text("secret").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** Failed attempts in a row across all deliveries; reset by a success; 20 switches it off. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    disabledAt: text("disabled_at"),
    createdById: text("created_by_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("webhooks_space_idx").on(t.spaceId)],
);

/**
 * One event to send to one webhook, written in the same transaction as the change. The
 * payload is fixed then, so every retry sends the same body under the same `webhook-id`.
 *
 * status: pending (not tried yet), failed (last attempt failed, another is due at
 * nextAttemptAt), succeeded, abandoned (out of attempts, or its webhook was switched off).
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    /** The exact JSON body sent: {type, timestamp, data}. */
    payload: text("payload").notNull(),
    status: text("status").$type<DeliveryStatus>().notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** When the next attempt is due; null once succeeded or abandoned. */
    nextAttemptAt: text("next_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastDurationMs: integer("last_duration_ms"),
    /** The first 1 KB of the last answer's body. */
    lastResponseSnippet: text("last_response_snippet"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    // Waiting deliveries in sending order (migration 0013): a batch reads them without sorting.
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt, t.id).where(sql`${t.nextAttemptAt} IS NOT NULL`),
    index("webhook_deliveries_hook_idx").on(t.webhookId, t.createdAt),
  ],
);

export type DeliveryStatus = "pending" | "failed" | "succeeded" | "abandoned";

/** Every attempt of every delivery: the delivery log. */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    /** 1 for the first attempt. */
    attempt: integer("attempt").notNull(),
    startedAt: text("started_at").notNull(),
    /** The HTTP status, or null when there was no answer (refused, time-out, network). */
    statusCode: integer("status_code"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    /** The first 1 KB of the answer's body. */
    responseSnippet: text("response_snippet"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attempt)],
);

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;
