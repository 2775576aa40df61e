import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../users/tables";

/** Browser sessions. The id is the SHA-256 of the cookie value; the value itself is never stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    /** A public handle for listing and revoking (the id above must never leave the server). */
    handle: text("handle").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
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

/**
 * Wrong passwords for one account from one client address (an IPv6 address counts by its /64):
 * that address's own lock for that account, and its share of the recent failures that show a
 * spread-out attack and lock the account for everyone (users.lockedUntil). Forgotten a day
 * after its last failure, or at a success from that address.
 */
export const signInFailures = sqliteTable(
  "sign_in_failures",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    /** Wrong passwords since this address's last lock (lockoutThreshold of them lock it). */
    failures: integer("failures").notNull().default(0),
    /** Locks since the last success from this address: each one doubles the next. */
    lockouts: integer("lockouts").notNull().default(0),
    lockedUntil: text("locked_until"),
    /** Wrong passwords still checked during the current lock (at most lockoutThreshold). */
    checkedWhileLocked: integer("checked_while_locked").notNull().default(0),
    /** Failures since recentSince, for the account-wide lock (lockoutAccountWindowSeconds). */
    recent: integer("recent").notNull().default(0),
    recentSince: text("recent_since").notNull(),
    lastFailureAt: text("last_failure_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.address] })],
);

/** Wrong passwords since the account's last sign-in, told once at the next one. */
export const signInNotices = sqliteTable("sign_in_notices", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  count: integer("count").notNull(),
  /** The client addresses they came from, newest first, at most ten. */
  addresses: text("addresses", { mode: "json" }).$type<string[]>().notNull(),
  lastAt: text("last_at").notNull(),
});

/**
 * One-time password reset links an administrator makes for an account (POST
 * /api/admin/users/{id}/reset-password), used at POST /api/auth/recover/token. Only the
 * SHA-256 of the link's token is kept; a new link replaces the account's unused ones.
 */
export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    createdById: text("created_by_id").references(() => users.id, { onDelete: "set null" }),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("password_resets_user_idx").on(t.userId)],
);
