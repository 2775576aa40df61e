import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../users/tables";

export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 of the whole token value; the value is shown once and never stored. */
    tokenHash: text("token_hash").notNull().unique(),
    /** The first characters of the value, to recognise it in lists. */
    prefix: text("prefix").notNull(),
    readOnly: integer("read_only", { mode: "boolean" }).notNull(),
    expiresAt: text("expires_at"),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at"),
    useCount: integer("use_count").notNull().default(0),
    revokedAt: text("revoked_at"),
  },
  (t) => [index("api_tokens_user_idx").on(t.userId)],
);

/**
 * Requests made with a token, one row per token and UTC day (tokens/admin-activity.ts counts
 * them in memory and adds them here about once a minute), with the day's last use and the
 * address it came from: what the admin's activity view shows, never one row per request.
 */
export const apiTokenDays = sqliteTable(
  "api_token_days",
  {
    tokenId: text("token_id")
      .notNull()
      .references(() => apiTokens.id, { onDelete: "cascade" }),
    /** YYYY-MM-DD, UTC. */
    day: text("day").notNull(),
    requests: integer("requests").notNull(),
    lastUsedAt: text("last_used_at").notNull(),
    /** The client address of the day's last request (as the pipeline resolved it). */
    lastIp: text("last_ip"),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.day] }), index("api_token_days_day_idx").on(t.day)],
);
