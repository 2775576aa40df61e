import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../users/tables";

/**
 * Custom groups. The three built-in groups (Owners, Administrators, Everyone) are rows too, with
 * fixed ids, but their membership follows each account's role tier and is never stored.
 */
export const groups = sqliteTable("groups", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** Lower-cased name, unique: "Design" and "design" are the same group. */
  nameKey: text("name_key").notNull().unique(),
  description: text("description").notNull().default(""),
  builtIn: integer("built_in", { mode: "boolean" }).notNull().default(false),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export const groupMembers = sqliteTable(
  "group_members",
  {
    groupId: text("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    addedAt: text("added_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index("group_members_user_idx").on(t.userId)],
);
