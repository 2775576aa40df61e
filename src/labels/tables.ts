import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { pages } from "../pages/tables";
import { users } from "../users/tables";

/**
 * Label names, shared by the whole wiki. A name stays once its last page loses it (ids stay
 * stable); GET /api/labels leaves out labels with no page the caller can see.
 */
export const labels = sqliteTable("labels", {
  id: text("id").primaryKey(),
  /** Folded (NFKC, lower-case) and checked by names.ts; unique. Compared byte for byte. */
  name: text("name").notNull().unique(),
  createdAt: text("created_at").notNull(),
});

/** Which page carries which label. Purging a page (or deleting its space) removes its links. */
export const pageLabels = sqliteTable(
  "page_labels",
  {
    pageId: text("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    labelId: text("label_id")
      .notNull()
      .references(() => labels.id, { onDelete: "cascade" }),
    addedById: text("added_by_id").references(() => users.id, { onDelete: "set null" }),
    addedAt: text("added_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.pageId, t.labelId] }), index("page_labels_label_idx").on(t.labelId)],
);
