/**
 * Unpublished changes (docs/decisions.md, "Publishing stays an explicit step"): who has changed a
 * page's shared working copy since its last published version, for the reading view's "Unpublished
 * changes by …", the editor's Close and Update; and "Discard mine", which takes one person's own
 * changes back on the server. Only for people who may edit the page: readers read the published
 * version, which is the page.
 */
import { requireEditablePage } from "../access/pages";
import type { Core } from "../core";
import { requireUser, type Caller } from "../identity/caller";
import { iso } from "../platform/clock";
import { AppError } from "../platform/errors";
import { findPage } from "../pages/store";
import type { Author } from "./authorship";
import { storedAuthors, userNames, type NamedAuthor } from "./store";
import type { Room } from "./room";
import { roomHostOf, settleAuthors } from "./service";

export interface UnpublishedChanges {
  authors: NamedAuthor[];
}

/** The list with names (one statement), first changes first. */
export function namedAuthors(core: Core, authors: Author[]): NamedAuthor[] {
  const names = userNames(
    core,
    authors.map((a) => a.userId),
  );
  return authors.map((a) => ({ id: a.userId, name: names.get(a.userId) ?? "Someone", since: iso(a.since), at: iso(a.at) }));
}

/** The live list of a loaded room, checked against the published version first. */
export function roomAuthors(core: Core, room: Room, publishedJson?: string): Author[] {
  settleAuthors(core, room, publishedJson);
  return room.authorship.list();
}

/** GET /api/pages/{id}/unpublished: from the loaded room, or as stored with the working copy. */
export function unpublishedChanges(core: Core, caller: Caller, pageId: string): UnpublishedChanges {
  const { page } = requireEditablePage(core, caller, findPage(core, pageId));
  const live = roomHostOf(core)?.withLoadedRoom(page.id, (room) =>
    roomAuthors(core, room, room.version === page.currentVersion ? page.contentJson : undefined),
  );
  return { authors: live ? namedAuthors(core, live) : storedAuthors(core, page.id) };
}

/**
 * POST /api/pages/{id}/unpublished/discard: the caller's own changes made while the room is
 * loaded are undone on the server (whoever typed around them keeps their text), and everyone
 * in the room receives that as one change. `discarded` is false when there was nothing of
 * theirs to undo; they stay listed when they had changes from before the room was loaded.
 */
export function discardMine(core: Core, caller: Caller, pageId: string): UnpublishedChanges & { discarded: boolean } {
  const user = requireUser(caller);
  const { page } = requireEditablePage(core, user, findPage(core, pageId));
  const done = roomHostOf(core)?.withLoadedRoom(page.id, (room) => {
    const discarded = room.authorship.discard(user.user.id);
    return { discarded, authors: roomAuthors(core, room, room.version === page.currentVersion ? page.contentJson : undefined) };
  });
  if (!done)
    throw new AppError("room_not_open", {
      detail: "Nobody has this page open in a shared editing room on this server: there is nothing of yours to take back here.",
    });
  return { discarded: done.discarded, authors: namedAuthors(core, done.authors) };
}
