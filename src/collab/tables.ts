import { blob, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { pages } from "../pages/tables";

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
