import { blob, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { pages } from "../pages/tables";
import { users } from "../users/tables";

/**
 * The shared working copy of each page that has been opened for editing: its Yjs document as
 * one update (Y.encodeStateAsUpdate), saved while people type and when the last one leaves, so
 * it survives restarts and is in every backup. `version` is the page's published version the
 * working copy was last brought up to (seeded from, published as, or merged with as tracked
 * changes). Purging the page drops it.
 */
export const collabDocuments = sqliteTable("collab_documents", {
  pageId: text("page_id")
    .primaryKey()
    .references(() => pages.id, { onDelete: "cascade" }),
  state: blob("state", { mode: "buffer" }).notNull(),
  version: integer("version").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/**
 * Who has unpublished changes in a page's working copy (docs/decisions.md, "Publishing stays an
 * explicit step"): each person whose edits changed it since it was last published, with the first
 * and the latest such edit. Saved with the working copy; emptied when a version is published from
 * it or when it equals the published version again.
 */
export const collabUnpublished = sqliteTable(
  "collab_unpublished",
  {
    pageId: text("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    since: text("since").notNull(),
    lastAt: text("last_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.pageId, t.userId] })],
);
