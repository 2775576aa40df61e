import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../users/tables";

/** Browser sessions. The id is the SHA-256 of the cookie value; the value itself is never stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    /** A public handle for listing and revoking (the id above must never leave the server). */
    handle: text("handle").notNull().unique(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    createdAt: text("created_at").notNull(),
    lastSeenAt: text("last_seen_at").notNull(),
    /** Idle expiry (14 days after last use), capped by absoluteExpiresAt (90 days after creation). */
    expiresAt: text("expires_at").notNull(),
    absoluteExpiresAt: text("absolute_expires_at").notNull(),
    /** When the password or code was last proved in this session ("sudo" window). */
    reauthAt: text("reauth_at"),
    ip: text("ip"),
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);
