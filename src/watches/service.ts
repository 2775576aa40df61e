/**
 * Watches (SPEC.md §4): a user who watches a space hears of every page created in it; one who
 * watches a page hears of its updates and comments (notifications/fanout.ts).
 *
 * Watching needs only read access (404 otherwise, like any id): it changes nothing anyone else
 * sees, so it is allowed in archived spaces and on pages in the trash. POST and DELETE are
 * idempotent and answer the state that now holds.
 *
 * The creator of a page and everyone who edits it watch it automatically (as in Confluence).
 * Unwatching is remembered (`unwatchedAt`), so a later edit by the same person does not put the
 * watch back; only POST …/watch does.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { requireReadablePage } from "../access/pages";
import { requireReadableSpace } from "../access/spaces";
import { requireUser, type Caller } from "../identity/caller";
import type { Core } from "../core";
import { findPage } from "../pages/store";
import { iso } from "../platform/clock";
import { perInstance } from "../platform/memo";
import { findSpaceByKey } from "../spaces/service";
import { pageWatches, spaceWatches } from "./tables";

export interface WatchState {
  watching: boolean;
}

function readablePage(core: Core, caller: Caller, pageId: string) {
  const user = requireUser(caller);
  return { user, page: requireReadablePage(core, user, findPage(core, pageId)).page };
}

function readableSpace(core: Core, caller: Caller, key: string) {
  const user = requireUser(caller);
  return { user, space: requireReadableSpace(core, user, findSpaceByKey(core, key)) };
}

const watchingPage = (core: Core, userId: string, pageId: string) =>
  core.db
    .select({ one: sql`1` })
    .from(pageWatches)
    .where(and(eq(pageWatches.pageId, pageId), eq(pageWatches.userId, userId), isNull(pageWatches.unwatchedAt)))
    .get() !== undefined;

const watchingSpace = (core: Core, userId: string, spaceId: string) =>
  core.db
    .select({ one: sql`1` })
    .from(spaceWatches)
    .where(and(eq(spaceWatches.spaceId, spaceId), eq(spaceWatches.userId, userId)))
    .get() !== undefined;

/** GET /api/pages/{id}/watch. */
export function pageWatchState(core: Core, caller: Caller, pageId: string): WatchState {
  const { user, page } = readablePage(core, caller, pageId);
  return { watching: watchingPage(core, user.user.id, page.id) };
}

/** POST (watch: true) and DELETE (watch: false) /api/pages/{id}/watch. */
export function setPageWatch(core: Core, caller: Caller, pageId: string, watch: boolean): WatchState {
  return core.tx(() => {
    const { user, page } = readablePage(core, caller, pageId);
    const now = iso(core.clock.now());
    const unwatchedAt = watch ? null : now;
    core.db
      .insert(pageWatches)
      .values({ pageId: page.id, userId: user.user.id, createdAt: now, unwatchedAt })
      // Unwatching twice keeps the first time.
      .onConflictDoUpdate({ target: [pageWatches.pageId, pageWatches.userId], set: { unwatchedAt: watch ? null : sql`coalesce(${pageWatches.unwatchedAt}, ${now})` } })
      .run();
    return { watching: watch };
  });
}

/** GET /api/spaces/{key}/watch. */
export function spaceWatchState(core: Core, caller: Caller, key: string): WatchState {
  const { user, space } = readableSpace(core, caller, key);
  return { watching: watchingSpace(core, user.user.id, space.id) };
}

/** POST (watch: true) and DELETE (watch: false) /api/spaces/{key}/watch. */
export function setSpaceWatch(core: Core, caller: Caller, key: string, watch: boolean): WatchState {
  return core.tx(() => {
    const { user, space } = readableSpace(core, caller, key);
    if (watch) core.db.insert(spaceWatches).values({ spaceId: space.id, userId: user.user.id, createdAt: iso(core.clock.now()) }).onConflictDoNothing().run();
    else core.db.delete(spaceWatches).where(and(eq(spaceWatches.spaceId, space.id), eq(spaceWatches.userId, user.user.id))).run();
    return { watching: watch };
  });
}

// Run inside every page create and update: prepared once per instance.
const statements = perInstance((sqlite: Core["sqlite"]) => ({
  autoWatch: sqlite.query<never, [string, string, string]>("INSERT INTO page_watches (page_id, user_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"),
  pageWatchers: sqlite.query<{ userId: string }, [string]>("SELECT user_id AS userId FROM page_watches WHERE page_id = ? AND unwatched_at IS NULL"),
  spaceWatchers: sqlite.query<{ userId: string }, [string]>("SELECT user_id AS userId FROM space_watches WHERE space_id = ?"),
}));

/**
 * The creator or editor of a page watches it from now on, unless they once chose to stop.
 * Runs inside the change's transaction.
 */
export function watchAutomatically(core: Core, userId: string, pageId: string): void {
  statements(core.sqlite).autoWatch.run(pageId, userId, iso(core.clock.now()));
}

/** The ids of the users watching a page (before any access check). */
export function pageWatcherIds(core: Core, pageId: string): string[] {
  return statements(core.sqlite).pageWatchers.all(pageId).map((r) => r.userId);
}

/** The ids of the users watching a space (before any access check). */
export function spaceWatcherIds(core: Core, spaceId: string): string[] {
  return statements(core.sqlite).spaceWatchers.all(spaceId).map((r) => r.userId);
}
