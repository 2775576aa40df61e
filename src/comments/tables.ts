import { index, sqliteTable, text, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { pages } from "../pages/tables";
import { users } from "../users/tables";

/**
 * Comments on pages: whole-page or inline (anchorJson), with one level of replies. A thread is
 * a top-level comment and its replies; resolving applies to the thread (its top comment).
 * Purging a page (or deleting its space) removes its comments.
 */
export const comments = sqliteTable(
  "comments",
  {
    id: text("id").primaryKey(),
    pageId: text("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    /** Null for a thread's top comment; else that top comment (never a reply). */
    parentId: text("parent_id").references((): AnySQLiteColumn => comments.id, { onDelete: "cascade" }),
    /** Plain text with mentions `@[Name](userId)`; emptied when deleted with replies left. */
    body: text("body").notNull(),
    /** The anchored passage as the editor sent it (JSON object text), stored as is; null: the whole page. */
    anchorJson: text("anchor_json"),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    resolvedAt: text("resolved_at"),
    resolvedById: text("resolved_by_id").references(() => users.id, { onDelete: "set null" }),
    /** Set when deleted while replies remain: the row stays as a "deleted" placeholder. */
    deletedAt: text("deleted_at"),
    /**
     * The name an imported archive gave the author when the import credited no account (the
     * author is then the importer): shown as "Name (imported)". Null otherwise.
     */
    importedAuthor: text("imported_author"),
  },
  (t) => [index("comments_page_idx").on(t.pageId, t.createdAt), index("comments_parent_idx").on(t.parentId)],
);

export type CommentRow = typeof comments.$inferSelect;
