import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { pages } from "../pages/tables";
import { spaces } from "../spaces/tables";
import { invites, users } from "../users/tables";

/**
 * Permission operation (docs/permissions.md, "Operations on a space"): a higher one implies the
 * lower. Restrictions use View and Edit.
 */
export const OPERATION = { View: 0, Edit: 1, Admin: 2 } as const;
/** Who a grant or restriction names: 0 User, 1 Group (docs/permissions.md). */
export const PRINCIPAL = { User: 0, Group: 1 } as const;

/**
 * Space permissions: one row per principal per space. A principal is a user or a group
 * (principalId is polymorphic, so there is no foreign key on it: the triggers of migration
 * 0010 remove the rows of a deleted user or group).
 */
export const spaceGrants = sqliteTable(
  "space_grants",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    /** 0 User, 1 Group. */
    principalType: integer("principal_type").notNull(),
    principalId: text("principal_id").notNull(),
    /** 0 View, 1 Edit, 2 Admin. */
    operation: integer("operation").notNull(),
    createdById: text("created_by_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("space_grants_principal_uq").on(t.spaceId, t.principalType, t.principalId),
    index("space_grants_by_principal_idx").on(t.principalType, t.principalId),
    check("space_grants_principal_type_ck", sql`${t.principalType} in (0, 1)`),
    check("space_grants_operation_ck", sql`${t.operation} in (0, 1, 2)`),
  ],
);

/**
 * Page restrictions, inherited down the tree. The rows of one (page, operation) together are
 * the restriction: whoever none of them names is shut out (View) or may not edit (Edit).
 */
export const pageRestrictions = sqliteTable(
  "page_restrictions",
  {
    id: text("id").primaryKey(),
    pageId: text("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    /** 0 View, 1 Edit. */
    operation: integer("operation").notNull(),
    principalType: integer("principal_type").notNull(),
    principalId: text("principal_id").notNull(),
    createdById: text("created_by_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("page_restrictions_principal_uq").on(t.pageId, t.operation, t.principalType, t.principalId),
    index("page_restrictions_by_principal_idx").on(t.principalType, t.principalId),
    check("page_restrictions_principal_type_ck", sql`${t.principalType} in (0, 1)`),
    check("page_restrictions_operation_ck", sql`${t.operation} in (0, 1)`),
  ],
);

/**
 * The space access an invite gives (migration 0029): applied as user grants when the invite is
 * accepted, in the transaction that creates the account. A deleted space drops out of its
 * invites (cascade); a withdrawn or used invite's rows go with it or stay as its record.
 */
export const inviteGrants = sqliteTable(
  "invite_grants",
  {
    inviteId: text("invite_id")
      .notNull()
      .references(() => invites.id, { onDelete: "cascade" }),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    /** 0 View, 1 Edit, 2 Admin. */
    operation: integer("operation").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.inviteId, t.spaceId] }),
    index("invite_grants_space_idx").on(t.spaceId),
    check("invite_grants_operation_ck", sql`${t.operation} in (0, 1, 2)`),
  ],
);

export type GrantRow = typeof spaceGrants.$inferSelect;
export type RestrictionRow = typeof pageRestrictions.$inferSelect;
