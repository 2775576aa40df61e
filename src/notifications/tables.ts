import { sql } from "drizzle-orm";
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { pages } from "../pages/tables";
import { spaces } from "../spaces/tables";
import { users } from "../users/tables";

/** What a notification tells (the `action` column). */
export const NOTIFICATION_ACTIONS = [
  "page.created",
  "page.updated",
  "comment.created",
  "mention",
  "webhook.disabled",
  "token.expiring",
  "backup.target_changed",
] as const;

export type NotificationAction = (typeof NOTIFICATION_ACTIONS)[number];

/**
 * In-app notifications, one row per recipient, written in the same transaction as the change
 * that caused them (notifications/fanout.ts). A row about a page or space goes when that page
 * or space goes; one about something the recipient can no longer see stays but is left out
 * when listed (notifications/service.ts).
 */
export const notifications = sqliteTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    action: text("action").$type<NotificationAction>().notNull(),
    /** An event target type: page, comment, webhook, token. */
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    spaceId: text("space_id").references(() => spaces.id, { onDelete: "cascade" }),
    pageId: text("page_id").references(() => pages.id, { onDelete: "cascade" }),
    /** Who did it; null for Cairn itself. No foreign key: the row is a message, not a relation. */
    actorId: text("actor_id"),
    /** Shown with the entry (titles, an excerpt…), as JSON. */
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: text("created_at").notNull(),
    readAt: text("read_at"),
  },
  (t) => [
    index("notifications_user_created_idx").on(t.userId, t.createdAt),
    // The foreign keys' cascades look rows up by these.
    index("notifications_page_idx").on(t.pageId),
    index("notifications_space_idx").on(t.spaceId),
    // Rapid edits coalesce: at most one unread "page.updated" per user and page (fanout.ts).
    uniqueIndex("notifications_unread_update_idx").on(t.userId, t.pageId).where(sql`action = 'page.updated' AND read_at IS NULL`),
    // A token's expiry is announced once.
    uniqueIndex("notifications_token_expiring_idx").on(t.targetId).where(sql`action = 'token.expiring'`),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;
