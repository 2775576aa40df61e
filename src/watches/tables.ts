import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { pages } from "../pages/tables";
import { spaces } from "../spaces/tables";
import { users } from "../users/tables";

/**
 * Who watches which page. The creator of a page and whoever edits it watch it automatically;
 * a row with `unwatchedAt` set records that the user chose to stop, so a later edit does not
 * quietly put the watch back. Purging the page (or deleting its space, or the account) removes
 * its rows.
 */
export const pageWatches = sqliteTable(
  "page_watches",
  {
    pageId: text("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: text("created_at").notNull(),
    /** Set while the user does not watch the page (DELETE …/watch); null: watching. */
    unwatchedAt: text("unwatched_at"),
  },
  (t) => [primaryKey({ columns: [t.pageId, t.userId] }), index("page_watches_user_idx").on(t.userId)],
);

/** Who watches which space (told of every page created in it). Only ever set by hand. */
export const spaceWatches = sqliteTable(
  "space_watches",
  {
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.spaceId, t.userId] }), index("space_watches_user_idx").on(t.userId)],
);
