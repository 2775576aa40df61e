/**
 * The store of watches (its hand-written SQL and the only writer of its tables): the one file
 * a second backend rewrites for this domain (docs/architecture.md, "Seams").
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Core } from "../core";
import { iso } from "../platform/clock";
import { perInstance } from "../platform/memo";
import { pageWatches, spaceWatches } from "./tables";

/** Whether the user watches the page now (a watch not since unwatched). */
export const watchingPage = (core: Core, userId: string, pageId: string) =>
  core.db
    .select({ one: sql`1` })
    .from(pageWatches)
    .where(and(eq(pageWatches.pageId, pageId), eq(pageWatches.userId, userId), isNull(pageWatches.unwatchedAt)))
    .get() !== undefined;

/**
 * How many accounts watch the page directly now (a watch not since unwatched). Space watchers
 * are not counted: they hear only of new pages, not of this page's edits and comments.
 */
export const pageWatcherCount = (core: Core, pageId: string) =>
  core.db
    .select({ n: sql<number>`count(*)` })
    .from(pageWatches)
    .where(and(eq(pageWatches.pageId, pageId), isNull(pageWatches.unwatchedAt)))
    .get()?.n ?? 0;

/** Whether the user watches the space. */
export const watchingSpace = (core: Core, userId: string, spaceId: string) =>
  core.db
    .select({ one: sql`1` })
    .from(spaceWatches)
    .where(and(eq(spaceWatches.spaceId, spaceId), eq(spaceWatches.userId, userId)))
    .get() !== undefined;

/** Watches the page (`watch`) or unwatches it; unwatching twice keeps the first time. */
export function writePageWatch(core: Core, pageId: string, userId: string, watch: boolean, now: string): void {
  core.db
    .insert(pageWatches)
    .values({ pageId, userId, createdAt: now, unwatchedAt: watch ? null : now })
    .onConflictDoUpdate({
      target: [pageWatches.pageId, pageWatches.userId],
      set: { unwatchedAt: watch ? null : sql`coalesce(${pageWatches.unwatchedAt}, ${now})` },
    })
    .run();
}

/** Watches the space (`watch`) or stops watching it. */
export function writeSpaceWatch(core: Core, spaceId: string, userId: string, watch: boolean, now: string): void {
  if (watch) core.db.insert(spaceWatches).values({ spaceId, userId, createdAt: now }).onConflictDoNothing().run();
  else
    core.db
      .delete(spaceWatches)
      .where(and(eq(spaceWatches.spaceId, spaceId), eq(spaceWatches.userId, userId)))
      .run();
}

// Run inside every page create and update: prepared once per instance.
const statements = perInstance((sqlite: Core["sqlite"]) => ({
  autoWatch: sqlite.query<never, [string, string, string]>(
    "INSERT INTO page_watches (page_id, user_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
  ),
  pageWatchers: sqlite.query<{ userId: string }, [string]>(
    "SELECT user_id AS userId FROM page_watches WHERE page_id = ? AND unwatched_at IS NULL",
  ),
  // Every row of the page, unwatched ones too: whether its editor has ever had one.
  pageWatchRows: sqlite.query<{ userId: string; unwatched: number }, [string]>(
    "SELECT user_id AS userId, unwatched_at IS NOT NULL AS unwatched FROM page_watches WHERE page_id = ?",
  ),
  spaceWatchers: sqlite.query<{ userId: string }, [string]>("SELECT user_id AS userId FROM space_watches WHERE space_id = ?"),
}));

/**
 * The creator or editor of a page watches it from now on, unless they once chose to stop.
 * Runs inside the change's transaction.
 */
export function watchAutomatically(core: Core, userId: string, pageId: string): void {
  statements(core.sqlite).autoWatch.run(pageId, userId, iso(core.clock.now()));
}

/**
 * An edit's watchAutomatically and pageWatcherIds in one read: the page's watchers once its
 * editor watches it too (unless they once chose to stop). The editor's watch is written only
 * when they have no row yet, so an edit by someone already watching writes nothing here.
 * Runs inside the change's transaction.
 */
export function watchersAfterEdit(core: Core, editorId: string | null, pageId: string): string[] {
  const q = statements(core.sqlite);
  const ids: string[] = [];
  let hasRow = editorId === null;
  for (const row of q.pageWatchRows.all(pageId)) {
    if (row.userId === editorId) hasRow = true;
    if (!row.unwatched) ids.push(row.userId);
  }
  if (!hasRow) {
    q.autoWatch.run(pageId, editorId!, iso(core.clock.now()));
    ids.push(editorId!);
  }
  return ids;
}

/** The ids of the users watching a page (before any access check). */
export function pageWatcherIds(core: Core, pageId: string): string[] {
  return statements(core.sqlite)
    .pageWatchers.all(pageId)
    .map((r) => r.userId);
}

/** The ids of the users watching a space (before any access check). */
export function spaceWatcherIds(core: Core, spaceId: string): string[] {
  return statements(core.sqlite)
    .spaceWatchers.all(spaceId)
    .map((r) => r.userId);
}
