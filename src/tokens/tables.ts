import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../users/tables";

export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
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
