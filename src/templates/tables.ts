import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { spaces } from "../spaces/tables";
import { users } from "../users/tables";

/** Page templates: of one space, or wiki-wide (spaceId null). Deleting a space removes its own. */
export const templates = sqliteTable(
  "templates",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id").references(() => spaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** Normalised by checkContentJson, like a page body. */
    contentJson: text("content_json").notNull(),
    createdById: text("created_by_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("templates_space_idx").on(t.spaceId)],
);

export type TemplateRow = typeof templates.$inferSelect;
