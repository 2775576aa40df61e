import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { pages } from "../pages/tables";
import { users } from "../users/tables";

/**
 * Page views, one row per page and UTC day (dashboard/page-views.ts counts them in memory and
 * adds each minute's counts here in one transaction: never a write per read).
 *
 * No foreign key to pages: a purged page's views stay in the day's total (they were views);
 * the top pages join `pages`, so only pages that still exist are named.
 */
export const pageViewsDaily = sqliteTable(
  "page_views_daily",
  {
    /** YYYY-MM-DD, UTC. */
    day: text("day").notNull(),
    pageId: text("page_id").notNull(),
    views: integer("views").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.pageId] }),
    // Covering: the range's sums by day and by page are read from the index alone.
    index("page_views_daily_cover_idx").on(t.day, t.pageId, t.views),
  ],
);

/**
 * The pages each person viewed last (the search palette's "Recently viewed"): one row per person
 * and page, its last view; written with the view counts (page-views.ts), at most
 * RECENT_VIEWS_KEPT per person. Unlike the counts, rows go with the page when it is purged.
 */
export const recentViews = sqliteTable(
  "recent_views",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    pageId: text("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    viewedAt: text("viewed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.pageId] }), index("recent_views_user_at_idx").on(t.userId, t.viewedAt)],
);
