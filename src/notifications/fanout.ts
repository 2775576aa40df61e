/**
 * Who is told what (docs/decisions.md, "Watches and notifications"). One recorder inside the
 * transaction of every event, so a change and its notifications commit or roll back together:
 *
 * - page.created (API, copy, draft published): the space's watchers;
 * - page.updated that made a new version (content, title, restore; not emoji or layout): the
 *   page's watchers; unread ones coalesce (one unread entry per user and page, moved to the top
 *   with the latest editor and an `edits` count);
 * - comment.created: the page's watchers and everyone who wrote in the thread;
 * - a mention in a new comment or added by a comment's edit, or one added to a page's content
 *   by a create, update or restore (compared with the previous version), tells the person
 *   mentioned: "mention" replaces any other entry that person would get for the same change;
 * - webhook.disabled: the space's administrators;
 * - backup.target_changed: the owner, even of their own change (a place that receives copies of
 *   the whole wiki is worth a second look: a session of theirs may be someone else's).
 *
 * Otherwise nobody is told of their own action, suspended accounts are told nothing, and nobody is told
 * of something they cannot see (access/*, asked per recipient). Creating or editing a page
 * also watches it for its author (watches/service.ts).
 *
 * It runs in every page write, so: a few prepared lookups, one statement for the candidates'
 * accounts, one INSERT … SELECT over a bound list (platform/db/lists.ts) per kind of entry. The access module is asked
 * per new recipient (its cost dominates a fan-out: a grant lookup and a restriction walk per
 * person); an unread update entry that is only refreshed is not asked about again (see Entry).
 */
import { canAdminSpace } from "../access/spaces";
import { canReadComments, canReadPage } from "../access/pages";
import type { UserCaller } from "../identity/caller";
import type { Core } from "../core";
import { onEventRecorded, type EventRow } from "../events/outbox";
import { findPage, findPageMeta } from "../pages/store";
import { ROLE_ID } from "../identity/rights";
import { newId } from "../platform/crypto";
import { unpackText } from "../platform/db/packed-text";
import { findSpaceById } from "../spaces/service";
import type { SpaceRow } from "../spaces/tables";
import type { PageMeta } from "../pages/tables";
import { pageWatcherIds, spaceWatcherIds, watchAutomatically, watchersAfterEdit } from "../watches/service";
import { commentExcerpt, contentMentionIds } from "./mentions";
import { everyone, peopleByIds } from "./people";
import { fanoutStatements as statements } from "./store";
import type { NotificationAction } from "./tables";

/** Registers the recorder (openInstance). */
export function installNotificationFanout(core: Core): void {
  onEventRecorded(core, (c, event, input) => {
    switch (event.type) {
      case "page.created":
        return pageCreated(c, event, input.document, given(input.page));
      case "page.updated":
        return pageUpdated(c, event, input.document, given(input.page));
      case "comment.created":
      case "comment.updated":
        return commentWritten(c, event);
      case "webhook.disabled":
        return webhookDisabled(c, event);
      case "backup.target_changed":
        return backupTargetChanged(c, event);
    }
  });
}

interface Entry {
  action: NotificationAction;
  targetType: string;
  targetId: string;
  details: Record<string, unknown>;
  /** Candidates before the checks; an earlier entry takes a person before a later one. */
  userIds: Iterable<string>;
  /**
   * Refreshes the unread entries these candidates already have (page.updated coalescing) and
   * answers whose it refreshed: they are not asked about again. What the refreshed entry says
   * (who edited, the title, how many edits) is in the page's history, readable by whoever can
   * see the page when the entry is listed, and the list checks exactly that. So rapid edits
   * cost one UPDATE … RETURNING, not a round of access checks and a row per watcher per edit.
   */
  refresh?: (userIds: string[]) => Set<string>;
}

/** Who among these people may see what an event is about (ids). */
type Readers = (people: UserCaller[]) => Set<string>;

/**
 * Asks the access module about each person. This is the fan-out's main cost (one or two small
 * queries per person with grants and restrictions); a batched question from access/* (all
 * candidates of one page at once) would plug in here.
 */
const each =
  (canSee: (person: UserCaller) => boolean): Readers =>
  (people) =>
    new Set(people.filter(canSee).map((p) => p.user.id));

/**
 * Writes the entries of one event: each person at most once (earlier entries first), never the
 * actor, only active accounts that may see it.
 */
function deliver(
  core: Core,
  event: EventRow,
  place: { spaceId: string | null; pageId: string | null },
  readers: Readers,
  entries: Entry[],
): void {
  const taken = new Set<string>(event.actorId ? [event.actorId] : []);
  const wanted = entries.map((e) => {
    const ids: string[] = [];
    for (const id of e.userIds) {
      if (!taken.has(id)) {
        taken.add(id);
        ids.push(id);
      }
    }
    return ids;
  });
  // Refreshed entries are done: only the others are asked about and written.
  const toWrite = entries.map((e, i) => {
    if (!e.refresh || wanted[i].length === 0) return wanted[i];
    const refreshed = e.refresh(wanted[i]);
    return refreshed.size ? wanted[i].filter((id) => !refreshed.has(id)) : wanted[i];
  });
  const people = peopleByIds(core, toWrite.flat());
  const allowed = people.size ? readers([...people.values()]) : new Set<string>();
  const s = statements(core);
  entries.forEach((e, i) => {
    const rows = toWrite[i].flatMap((id) => (allowed.has(id) ? [[newId(), id]] : []));
    if (rows.length === 0) return;
    const statement = e.action === "page.updated" ? s.coalesce : s.insert;
    statement.run(
      e.action,
      e.targetType,
      e.targetId,
      place.spaceId,
      place.pageId,
      event.actorId,
      JSON.stringify(e.details),
      event.createdAt,
      JSON.stringify(rows),
    );
  });
}

const pageDetails = (page: PageMeta, space: SpaceRow) => ({ pageTitle: page.title, spaceKey: space.key, spaceName: space.name });

/**
 * Who a page's current document mentions (contentMentionIds): the document the service passed
 * with the event, or read again.
 */
function pageMentionIds(core: Core, pageId: string, document: string | undefined): string[] {
  if (document !== undefined) return contentMentionIds(document);
  const row = statements(core).pageContent.get(pageId);
  return row ? contentMentionIds(unpackText(row.contentJson)) : [];
}

/** The page and space the service handed with its event (pages/service.ts), as they now are. */
type PageGiven = { page: PageMeta; space: SpaceRow } | undefined;
const given = (page: { page: object; space: object } | undefined): PageGiven => page as PageGiven;

function pageCreated(core: Core, event: EventRow, document: string | undefined, handed: PageGiven): void {
  const found = handed ?? findPageMeta(core, event.targetId);
  if (!found) return;
  const { page, space } = found;
  if (event.actorId) watchAutomatically(core, event.actorId, page.id);
  const details = pageDetails(page, space);
  deliver(
    core,
    event,
    { spaceId: space.id, pageId: page.id },
    each((p) => canReadPage(core, p, space, page)),
    [
      // A draft told nobody of its mentions, so on publication all of them are new.
      { action: "mention", targetType: "page", targetId: page.id, details, userIds: pageMentionIds(core, page.id, document) },
      { action: "page.created", targetType: "page", targetId: page.id, details, userIds: spaceWatcherIds(core, space.id) },
    ],
  );
}

function pageUpdated(core: Core, event: EventRow, document: string | undefined, handed: PageGiven): void {
  // Emoji and layout changes record page.updated without a new version: nobody is told.
  const versionNumber = event.data.versionNumber;
  if (typeof versionNumber !== "number") return;
  const found = handed ?? findPageMeta(core, event.targetId);
  if (!found) return;
  const { page, space } = found;
  // The editor watches the page from now on (watches/service.ts), in the read of its watchers.
  const watchers = watchersAfterEdit(core, event.actorId, page.id);
  const details = { ...pageDetails(page, space), versionNumber };
  deliver(
    core,
    event,
    { spaceId: space.id, pageId: page.id },
    each((p) => canReadPage(core, p, space, page)),
    [
      { action: "mention", targetType: "page", targetId: page.id, details, userIds: newMentions(core, page, versionNumber, document) },
      {
        action: "page.updated",
        targetType: "page",
        targetId: page.id,
        details: { ...details, edits: 1 },
        userIds: watchers,
        refresh: (userIds) => refreshUnread(core, event, page.id, { ...details, edits: 1 }, userIds),
      },
    ],
  );
}

/**
 * Moves these people's unread update entry of the page to the top with this edit (latest
 * editor, one edit more); answers whose it moved. One statement for every watcher.
 */
function refreshUnread(core: Core, event: EventRow, pageId: string, details: Record<string, unknown>, userIds: string[]): Set<string> {
  const rows = statements(core).refreshUnread.all(event.actorId, event.createdAt, JSON.stringify(details), pageId, JSON.stringify(userIds));
  return new Set(rows.map((r) => r.userId));
}

/** Who the page's content mentions now and did not in the version before this one. */
function newMentions(core: Core, page: PageMeta, versionNumber: number, document: string | undefined): string[] {
  const now = pageMentionIds(core, page.id, document);
  if (now.length === 0) return [];
  const before = statements(core).versionContent.get(page.id, versionNumber - 1);
  const old = new Set(before ? contentMentionIds(unpackText(before.contentJson)) : []);
  return now.filter((id) => !old.has(id));
}

/** A new comment tells the thread, the page's watchers and whoever it mentions; an edit only those it mentions for the first time. */
function commentWritten(core: Core, event: EventRow): void {
  const data = event.data as { pageId?: unknown; parentCommentId?: unknown; mentionedUserIds?: unknown };
  const found = typeof data.pageId === "string" ? findPage(core, data.pageId) : undefined;
  const comment = statements(core).comment.get(event.targetId);
  if (!found || !comment) return;
  const { page, space } = found;
  const threadId = comment.parentId ?? event.targetId;
  const participants = comment.parentId
    ? statements(core)
        .threadAuthors.all(threadId, threadId)
        .map((r) => r.authorId)
    : [];
  const mentioned = Array.isArray(data.mentionedUserIds) ? data.mentionedUserIds.filter((id): id is string => typeof id === "string") : [];
  const details = {
    ...pageDetails(page, space),
    pageId: page.id,
    commentId: event.targetId,
    threadId,
    reply: comment.parentId !== null,
    excerpt: commentExcerpt(comment.body),
  };
  const mention: Entry = { action: "mention", targetType: "comment", targetId: event.targetId, details, userIds: mentioned };
  deliver(
    core,
    event,
    { spaceId: space.id, pageId: page.id },
    each((p) => canReadComments(core, p, space, page)),
    event.type === "comment.updated"
      ? [mention]
      : [
          mention,
          {
            action: "comment.created",
            targetType: "comment",
            targetId: event.targetId,
            details,
            userIds: [...participants, ...pageWatcherIds(core, page.id)],
          },
        ],
  );
}

/** Rare (20 failures in a row), so it may look at every account to find the space's admins. */
function webhookDisabled(core: Core, event: EventRow): void {
  const space = event.spaceId ? findSpaceById(core, event.spaceId) : undefined;
  if (!space) return;
  const admins = everyone(core).filter((p) => canAdminSpace(core, p, space));
  const { url, lastError, consecutiveFailures } = event.data as Record<string, unknown>;
  const details = { spaceKey: space.key, spaceName: space.name, url, lastError, consecutiveFailures };
  // The candidates are already its administrators.
  deliver(
    core,
    event,
    { spaceId: space.id, pageId: null },
    each(() => true),
    [{ action: "webhook.disabled", targetType: "webhook", targetId: event.targetId, details, userIds: admins.map((p) => p.user.id) }],
  );
}

/** Rare (an administrator's setting): tells the owner where copies of the wiki now go. */
function backupTargetChanged(core: Core, event: EventRow): void {
  const owners = everyone(core).filter((p) => p.role.id === ROLE_ID.owner);
  if (owners.length === 0) return;
  const { slot, action, where } = event.data as Record<string, unknown>;
  const rows = owners.map((p) => [newId(), p.user.id]);
  const entry: NotificationAction = "backup.target_changed";
  statements(core).insert.run(
    entry,
    event.targetType,
    event.targetId,
    null,
    null,
    event.actorId,
    JSON.stringify({ slot, action, where }),
    event.createdAt,
    JSON.stringify(rows),
  );
}
