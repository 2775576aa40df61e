import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const roles = sqliteTable("roles", {
  id: text("id").primaryKey(),
  name: text("name").notNull().unique(),
  description: text("description").notNull().default(""),
  /** 0 Member, 1 Admin, 2 Owner (docs/permissions.md, "Roles and rights"). */
  tier: integer("tier").notNull(),
  builtIn: integer("built_in", { mode: "boolean" }).notNull().default(false),
  /** JSON array of right keys, e.g. ["tokens.use","spaces.create"]. */
  permissions: text("permissions", { mode: "json" }).$type<string[]>().notNull(),
  /**
   * Built-in roles: every right their defaults have ever offered them (src/roles/built-in.ts).
   * A right added to the defaults in a later release is granted once at start-up; one the
   * administrator removed stays removed. Null for custom roles and rows older than this column.
   */
  offered: text("offered", { mode: "json" }).$type<string[]>(),
  createdAt: text("created_at").notNull(),
});

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** Stored lower-cased; unique. */
    email: text("email").notNull().unique(),
    displayName: text("display_name").notNull(),
    passwordHash: text("password_hash").notNull(),
    roleId: text("role_id")
      .notNull()
      .references(() => roles.id),
    /** 0 Active, 1 Suspended. */
    status: integer("status").notNull().default(0),
    totpEnabled: integer("totp_enabled", { mode: "boolean" }).notNull().default(false),
    /**
     * Sign-in failures since the last success or lock (docs/decisions.md, "Lockout is per account
     * and client address").
     */
    failedLogins: integer("failed_logins").notNull().default(0),
    /** How many times the account was locked since its last successful sign-in. */
    lockouts: integer("lockouts").notNull().default(0),
    lockedUntil: text("locked_until"),
    /** The uploaded avatar's blob (media/service.ts); null: the generated one (initials). */
    avatarSha256: text("avatar_sha256"),
    /** Which generated avatar (colour) is shown when none is uploaded: 0…AVATAR_VARIANTS-1. */
    avatarVariant: integer("avatar_variant").notNull().default(0),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("users_role_idx").on(t.roleId)],
);

export const invites = sqliteTable("invites", {
  id: text("id").primaryKey(),
  tokenHash: text("token_hash").notNull().unique(),
  /** When set, only this address may use the invite. */
  email: text("email"),
  roleId: text("role_id")
    .notNull()
    .references(() => roles.id),
  createdById: text("created_by_id").references(() => users.id, { onDelete: "set null" }),
  expiresAt: text("expires_at").notNull(),
  usedAt: text("used_at"),
  usedById: text("used_by_id").references(() => users.id, { onDelete: "set null" }),
  createdAt: text("created_at").notNull(),
});
