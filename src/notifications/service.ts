/**
 * Reading notifications: GET /api/notifications, the unread count, marking read.
 *
 * An entry about something the reader can no longer see (a page now hidden from them, a space
 * they lost, a webhook of a space they no longer administer, a comment since deleted) is left
 * out of the list and the count, and marking it read answers 404 as for any unknown id. The
 * checks are the access module's, with the pages and spaces of a batch loaded once.
 */
import { eq, isNull, type SQL } from "drizzle-orm";
import { canReadComments, canReadPage } from "../access/pages";
import { canAdminSpace, canReadSpace } from "../access/spaces";
import { requireUser, type Caller, type UserCaller } from "../identity/caller";
import type { Core } from "../core";
import { iso } from "../platform/clock";
import { invalid, notFound } from "../platform/errors";
import { personOf } from "./people";
import { commentStillThere, markAllEntriesRead, markEntryRead, newestAfter, ownEntry, pagesAndSpaces, unreadByPlace } from "./store";
import { notifications, type NotificationRow } from "./tables";

export const NOTIFICATIONS_TAKE_DEFAULT = 50;
export const NOTIFICATIONS_TAKE_MAX = 200;

/** A notification as the API answers it (docs/api.md, "Response shapes"). */
export function toNotification(row: NotificationRow, actorName: string | null) {
  return {
    id: row.id,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    spaceId: row.spaceId,
    pageId: row.pageId,
    actorId: row.actorId,
    actorName,
    details: row.details,
    createdAt: row.createdAt,
    readAt: row.readAt,
  };
}

export type Notification = ReturnType<typeof toNotification>;

/** Where an entry points, which is all its visibility depends on. */
type Place = Pick<NotificationRow, "targetType" | "spaceId" | "pageId">;

/**
 * Loads the pages and spaces the entries name (two queries) and answers a visibility test, for
 * the reader as a person (their own rights, whatever token they came with).
 */
function visibilityFor(core: Core, reader: UserCaller, places: Place[]): (place: Place) => boolean {
  const person = personOf(reader.user, reader.role);
  const pageIds = [...new Set(places.flatMap((p) => (p.pageId ? [p.pageId] : [])))];
  const { pageById, spaceById } = pagesAndSpaces(core, pageIds, (found) => [
    ...new Set([...places.flatMap((p) => (p.spaceId ? [p.spaceId] : [])), ...found.map((p) => p.spaceId)]),
  ]);
  return (place) => {
    if (place.pageId) {
      // The page's space now (it may have moved), not the one it was in when told.
      const page = pageById.get(place.pageId);
      const space = page && spaceById.get(page.spaceId);
      if (!page || !space) return false;
      return place.targetType === "comment" ? canReadComments(core, person, space, page) : canReadPage(core, person, space, page);
    }
    if (place.spaceId) {
      const space = spaceById.get(place.spaceId);
      if (!space) return false;
      return place.targetType === "webhook" ? canAdminSpace(core, person, space) : canReadSpace(core, person, space);
    }
    return true;
  };
}

export interface ListQuery {
  unreadOnly?: boolean;
  take?: number;
}

/** GET /api/notifications: the caller's most recent entries they can still see, newest first. */
export function listNotifications(core: Core, caller: Caller, query: ListQuery): Notification[] {
  const user = requireUser(caller);
  const take = query.take ?? NOTIFICATIONS_TAKE_DEFAULT;
  if (!Number.isInteger(take) || take < 1 || take > NOTIFICATIONS_TAKE_MAX)
    throw invalid("take", `must be a whole number from 1 to ${NOTIFICATIONS_TAKE_MAX}`);
  const filters: SQL[] = [eq(notifications.userId, user.user.id), commentStillThere];
  if (query.unreadOnly) filters.push(isNull(notifications.readAt));

  const out: Notification[] = [];
  const chunk = Math.max(take, 100);
  let after: Cursor | null = null;
  for (;;) {
    const rows = newestAfter(core, filters, after, chunk);
    const visible = visibilityFor(
      core,
      user,
      rows.map((r) => r.n),
    );
    for (const r of rows) {
      if (visible(r.n)) out.push(toNotification(r.n, r.actorName));
      if (out.length === take) return out;
    }
    if (rows.length < chunk) return out;
    after = rows[rows.length - 1].n;
  }
}

type Cursor = Pick<NotificationRow, "createdAt" | "id">;

/** GET /api/notifications/unread-count: what GET /api/notifications?unreadOnly=true would list without a limit. */
export function unreadCount(core: Core, caller: Caller): { count: number } {
  const user = requireUser(caller);
  // Unread entries grouped by where they point, so each page and space is checked once.
  const groups = unreadByPlace(core, user.user.id);
  const visible = visibilityFor(core, user, groups);
  return { count: groups.reduce((sum, g) => sum + (visible(g) ? g.n : 0), 0) };
}

/**
 * POST /api/notifications/{id}/read: one of the caller's entries they can still see (404 otherwise); reading twice keeps the first time.
 */
export function markRead(core: Core, caller: Caller, id: string): void {
  const user = requireUser(caller);
  core.tx(() => {
    const row = ownEntry(core, user.user.id, id);
    if (!row || !visibilityFor(core, user, [row])(row)) throw notFound("Notification not found");
    if (row.readAt === null) markEntryRead(core, row.id, iso(core.clock.now()));
  });
}

/** POST /api/notifications/read-all: every unread entry of the caller's, seen or not. */
export function markAllRead(core: Core, caller: Caller): void {
  const user = requireUser(caller);
  core.tx(() => markAllEntriesRead(core, user.user.id, iso(core.clock.now())));
}
