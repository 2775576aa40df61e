import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../users/tables";

export const spaces = sqliteTable(
  "spaces",
  {
    id: text("id").primaryKey(),
    /** 2–50 letters and digits, starting with a letter, stored upper-case; unique. */
    key: text("key").notNull().unique(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    isPublic: integer("is_public", { mode: "boolean" }).notNull().default(false),
    publicComments: integer("public_comments", { mode: "boolean" }).notNull().default(false),
    /** Set while archived: the space is read-only and left out of GET /api/spaces by default. */
    archivedAt: text("archived_at"),
    /** Set while an import writes the space (imports/staged.ts): nobody sees it, and a start removes it. */
    stagedAt: text("staged_at"),
    /** 0 Generated, 1 Emoji, 2 Image (docs/api.md, "Integer enums"). */
    iconKind: integer("icon_kind").notNull().default(0),
    iconValue: text("icon_value"),
    iconColor: text("icon_color"),
    /** 0 Plain, 1 Numbered, 2 Bulleted. */
    treeStyle: integer("tree_style").notNull().default(0),
    exportMarkdown: integer("export_markdown", { mode: "boolean" }).notNull().default(true),
    exportHtml: integer("export_html", { mode: "boolean" }).notNull().default(true),
    exportPdf: integer("export_pdf", { mode: "boolean" }).notNull().default(true),
    exportSite: integer("export_site", { mode: "boolean" }).notNull().default(true),
    exportPack: integer("export_pack", { mode: "boolean" }).notNull().default(true),
    /** Reserved for the space's home page; nothing sets it yet (no FK so pages stay independent). */
    homepageId: text("homepage_id"),
    createdById: text("created_by_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("spaces_name_idx").on(t.name)],
);

export type SpaceRow = typeof spaces.$inferSelect;
