/**
 * The store of the dashboard (its hand-written SQL and the only writer of its tables): the one
 * file a second backend rewrites for this domain (docs/architecture.md, "Seams"). Every
 * statement is an aggregate over an index or a small table; none reads a page's document.
 */
import { and, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { PAGE_STATUS, pages } from "../pages/tables";
import { spaces } from "../spaces/tables";
import type { Core } from "../core";
import type { Db } from "../platform/db/open";
import { pageViewsDaily, recentViews } from "./tables";

/** Adds a minute's counts to the day's row (one statement per page and day, in one transaction). */
export function addPageViews({ db }: Pick<Core, "db">, day: string, pageId: string, views: number): void {
  db.insert(pageViewsDaily)
    .values({ day, pageId, views })
    .onConflictDoUpdate({ target: [pageViewsDaily.day, pageViewsDaily.pageId], set: { views: sql`${pageViewsDaily.views} + ${views}` } })
    .run();
}

/** A person's last view of a page (recent_views); a page read again moves up. */
export function noteRecentView({ db }: Pick<Core, "db">, userId: string, pageId: string, at: string): void {
  // A page purged since the read is skipped (its row would break the foreign key).
  db.run(sql`INSERT INTO recent_views (user_id, page_id, viewed_at) SELECT ${userId}, ${pageId}, ${at}
    WHERE EXISTS (SELECT 1 FROM pages WHERE id = ${pageId}) AND EXISTS (SELECT 1 FROM users WHERE id = ${userId})
    ON CONFLICT (user_id, page_id) DO UPDATE SET viewed_at = max(viewed_at, excluded.viewed_at)`);
}

/** Keeps a person's `keep` newest views. */
export function trimRecentViews({ db }: Pick<Core, "db">, userId: string, keep: number): void {
  db.run(
    sql`DELETE FROM recent_views WHERE user_id = ${userId}
      AND page_id NOT IN (SELECT page_id FROM recent_views WHERE user_id = ${userId} ORDER BY viewed_at DESC LIMIT ${keep})`,
  );
}

/** The one row of an aggregate (drizzle's get() answers a raw row as an array; all() names the columns). */
const one = (db: Db, query: SQL) => db.all<Record<string, number>>(query)[0];

/** Accounts by status, and invites still usable. */
export function peopleCounts({ db }: Pick<Core, "db">, now: string) {
  return one(
    db,
    sql`SELECT
      (SELECT count(*) FROM users WHERE status = 0) AS active,
      (SELECT count(*) FROM users WHERE status = 1) AS suspended,
      (SELECT count(*) FROM invites WHERE used_at IS NULL AND expires_at > ${now}) AS invited`,
  ) as { active: number; suspended: number; invited: number };
}

/** The pages of the spaces an import is still writing. */
const STAGED_PAGES = sql.raw("SELECT id FROM pages WHERE space_id IN (SELECT id FROM spaces WHERE staged_at IS NOT NULL)");

/**
 * What the instance holds. Pages: published and out of the trash (drafts and the trash are
 * counted apart); attachments: rows and their bytes (a file attached twice counts twice here,
 * once in the file store). A space an import is still writing is not counted, nor what it holds
 * (when none is, each subtraction is one look-up in an index that finds nothing).
 */
export function contentCounts({ db }: Pick<Core, "db">) {
  return one(
    db,
    sql`SELECT
      (SELECT count(*) FROM spaces WHERE staged_at IS NULL) AS spaces,
      (SELECT count(*) FROM pages WHERE status = 1 AND deleted_at IS NULL)
        - (SELECT count(*) FROM pages WHERE space_id IN (SELECT id FROM spaces WHERE staged_at IS NOT NULL)) AS pages,
      (SELECT count(*) FROM pages WHERE status = 0 AND deleted_at IS NULL) AS drafts,
      (SELECT count(*) FROM pages WHERE deleted_at IS NOT NULL) AS trashed,
      (SELECT count(*) FROM page_versions)
        - (SELECT count(*) FROM page_versions WHERE page_id IN (${STAGED_PAGES})) AS versions,
      (SELECT count(*) FROM attachments)
        - (SELECT count(*) FROM attachments WHERE page_id IN (${STAGED_PAGES})) AS attachments,
      (SELECT coalesce(sum(size), 0) FROM attachments)
        - (SELECT coalesce(sum(size), 0) FROM attachments WHERE page_id IN (${STAGED_PAGES})) AS attachment_bytes`,
  ) as { spaces: number; pages: number; drafts: number; trashed: number; versions: number; attachments: number; attachment_bytes: number };
}

/** Views per day from `since` (a YYYY-MM-DD day), days without a row left out. */
export function viewsPerDay({ db }: Pick<Core, "db">, since: string): Array<{ day: string; views: number }> {
  return db.all(sql`SELECT day, sum(views) AS views FROM page_views_daily WHERE day >= ${since} GROUP BY day ORDER BY day`);
}

/**
 * The most read pages since `since` that still exist (out of the trash), most views first;
 * `take` candidates, so the caller can leave out the ones the admin may not read.
 */
export function topPageCandidates({ db }: Pick<Core, "db">, since: string, take: number): Array<{ pageId: string; views: number }> {
  // Summed first, then joined: one look-up per page read, not per day row.
  return db.all(sql`
    SELECT v.page_id AS pageId, v.views AS views
    FROM (SELECT page_id, sum(views) AS views FROM page_views_daily WHERE day >= ${since} GROUP BY page_id) v
    JOIN pages p ON p.id = v.page_id AND p.deleted_at IS NULL AND p.status = 1
    ORDER BY v.views DESC, v.page_id LIMIT ${take}`);
}

/** Who saved the most versions since `since` (an ISO instant); accounts deleted since are left out. */
export function topEditors(
  { db }: Pick<Core, "db">,
  since: string,
  take: number,
): Array<{ userId: string; displayName: string; versions: number }> {
  return db.all(sql`
    SELECT u.id AS userId, u.display_name AS displayName, count(*) AS versions
    FROM page_versions v JOIN users u ON u.id = v.author_id
    WHERE v.created_at >= ${since}
    GROUP BY u.id ORDER BY versions DESC, u.display_name LIMIT ${take}`);
}

/**
 * The pages a person viewed last that `readable` lets the caller read (published, out of the
 * trash), newest first.
 */
export function viewedPages(core: Pick<Core, "db">, userId: string, readable: SQL, limit: number) {
  return core.db
    .select({
      id: pages.id,
      title: pages.title,
      emoji: pages.emoji,
      spaceId: spaces.id,
      spaceKey: spaces.key,
      space: spaces.name,
      viewedAt: recentViews.viewedAt,
    })
    .from(recentViews)
    .innerJoin(pages, eq(pages.id, recentViews.pageId))
    .innerJoin(spaces, eq(spaces.id, pages.spaceId))
    .where(and(eq(recentViews.userId, userId), eq(pages.status, PAGE_STATUS.Published), isNull(pages.deletedAt), readable))
    .orderBy(desc(recentViews.viewedAt), desc(pages.id))
    .limit(limit)
    .all();
}
