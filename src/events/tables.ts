import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The outbox: one row per domain event (page.created, space.deleted…), written in the same
 * transaction as the change it describes. No foreign keys on purpose: the row outlives what it
 * talks about (a purged page, a deleted space) and is a log, not a relation.
 */
export const events = sqliteTable(
  "events",
  {
    /**
     * Commit order. AUTOINCREMENT so a number is never reused; writers are serialised
     * (BEGIN IMMEDIATE, one process), so a higher seq always committed later and a consumer's
     * cursor "everything up to seq N" never skips a row.
     */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    /** Dotted event type, e.g. "page.updated" (docs/decisions.md, "Standard Webhooks"). */
    type: text("type").notNull(),
    /** "page" or "space". */
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    spaceId: text("space_id"),
    actorId: text("actor_id"),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("events_target_idx").on(t.targetType, t.targetId)],
);

/** How far each named consumer has handled the outbox (its cursor survives restarts). */
export const eventCursors = sqliteTable("event_cursors", {
  consumer: text("consumer").primaryKey(),
  seq: integer("seq").notNull(),
  updatedAt: text("updated_at").notNull(),
});
