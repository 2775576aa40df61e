/**
 * PUT /api/pages/{id} with `contentFrom: "room"`: "Update" in a shared editing room publishes
 * the room's working copy as the next version. The server takes the document from the room
 * itself (no client can send a stale copy of it), resolves tracked changes by accepting them
 * (the latest committed write wins unless someone rejected it), checks it like any contentJson,
 * and saves it with the usual baseVersion rule. Everyone in the room sees the new version
 * number, and the working copy becomes exactly what was published.
 *
 * The version credits everyone whose unpublished changes it holds (its contributors),
 * and their list is emptied. A client that showed the publisher whose changes go out sends
 * their ids as `seenAuthors`: anyone else found with changes in the room (they typed since) is a
 * 409 `unseen_changes` naming them, and nothing is published.
 */
import { requireEditablePage } from "../access/pages";
import { replaceRoomContent, roomContent } from "../collab/content";
import { writeAuthors } from "../collab/store";
import { roomHostOf } from "../collab/service";
import { explainRefusal } from "../collab/refusal";
import { namedAuthors, roomAuthors } from "../collab/unpublished";
import { acceptAll } from "../content/tracked-changes";
import type { Core } from "../core";
import type { Caller } from "../identity/caller";
import { AppError, invalid } from "../platform/errors";
import { updatePage, type UpdatePageInput } from "../pages/service";
import type { Page } from "../pages/answer";
import { findPage, writeContributors } from "../pages/store";

export interface PublishRoomInput extends Omit<UpdatePageInput, "contentJson" | "contentMarkdown"> {
  contentFrom: "room";
  contentJson?: unknown;
  contentMarkdown?: unknown;
  /** The people whose changes the publisher was shown (account ids). */
  seenAuthors?: string[];
}

export function publishRoom(core: Core, caller: Caller, pageId: string, input: PublishRoomInput): Page {
  if (input.contentJson !== undefined || input.contentMarkdown !== undefined) {
    throw invalid("contentFrom", "send the document from the room, as contentJson or as contentMarkdown: one of them, not several");
  }
  const { contentFrom: _from, contentJson: _json, contentMarkdown: _markdown, seenAuthors, ...rest } = input;
  const published = roomHostOf(core)?.withLoadedRoom(pageId, (room) => {
    const page = core.tx(() => {
      const before = findPage(core, pageId)?.page;
      const content = acceptAll(roomContent(room));
      let page: Page;
      try {
        page = updatePage(core, caller, pageId, { ...rest, contentJson: JSON.stringify(content) });
      } catch (err) {
        // A refused link or passage is named in words the person at the editor can act on.
        throw explainRefusal(err, content);
      }
      const authors = roomAuthors(core, room, before && before.currentVersion === room.version ? before.contentJson : undefined);
      const me = caller.kind === "user" ? caller.user.id : null;
      const unseen = seenAuthors ? authors.filter((a) => a.userId !== me && !seenAuthors.includes(a.userId)) : [];
      if (unseen.length > 0) {
        const named = namedAuthors(core, unseen);
        throw new AppError("unseen_changes", {
          detail:
            `${named.map((a) => a.name).join(", ")} changed the page since you were ` +
            `shown whose changes it holds: look again, then publish.`,
          extra: { authors: namedAuthors(core, authors) },
        });
      }
      if (before && page.currentVersionNumber > before.currentVersion && authors.length > 0) {
        writeContributors(
          core,
          page.id,
          page.currentVersionNumber,
          authors.map((a) => a.userId),
        );
      }
      writeAuthors(core, page.id, []);
      // Set before the commit, in this same turn, so the after-commit hook that brings rooms
      // up to date with changes from outside sees nothing to do (external.ts): typing that
      // arrives before the commit is not mistaken for a change to track.
      replaceRoomContent(room, JSON.parse(page.contentJson));
      room.setVersion(page.currentVersionNumber);
      return page;
    });
    // Published: nobody's changes are pending any more (the stored list went in the transaction).
    room.authorship.clear();
    room.authorship.dirty = false;
    return page;
  });
  if (published) return published;
  // Nobody has it open: the caller learns that only about a page they may edit.
  requireEditablePage(core, caller, findPage(core, pageId));
  throw new AppError("room_not_open", {
    detail: "Nobody has this page open in a shared editing room on this server: send the document as contentJson instead.",
  });
}
