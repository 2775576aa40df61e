/**
 * PUT /api/pages/{id} with `contentFrom: "room"`: "Update" in a shared editing room publishes
 * the room's working copy as the next version. The server takes the document from the room
 * itself (no client can send a stale copy of it), resolves tracked changes by accepting them
 * (the latest committed write wins unless someone rejected it), checks it like any contentJson,
 * and saves it with the usual baseVersion rule. Everyone in the room sees the new version
 * number, and the working copy becomes exactly what was published.
 */
import { requireEditablePage } from "../access/pages";
import { replaceRoomContent, roomContent } from "../collab/content";
import { roomHostOf } from "../collab/service";
import { acceptAll } from "../content/tracked-changes";
import type { Core } from "../core";
import type { Caller } from "../identity/caller";
import { AppError, invalid } from "../platform/errors";
import { updatePage, type UpdatePageInput } from "../pages/service";
import { findPage, type Page } from "../pages/store";

export interface PublishRoomInput extends Omit<UpdatePageInput, "contentJson" | "contentMarkdown"> {
  contentFrom: "room";
  contentJson?: unknown;
  contentMarkdown?: unknown;
}

export function publishRoom(core: Core, caller: Caller, pageId: string, input: PublishRoomInput): Page {
  if (input.contentJson !== undefined || input.contentMarkdown !== undefined) {
    throw invalid("contentFrom", "send the document from the room, as contentJson or as contentMarkdown: one of them, not several");
  }
  const { contentFrom: _from, contentJson: _json, contentMarkdown: _markdown, ...rest } = input;
  const published = roomHostOf(core)?.withLoadedRoom(pageId, (room) =>
    core.tx(() => {
      const content = acceptAll(roomContent(room));
      const page = updatePage(core, caller, pageId, { ...rest, contentJson: JSON.stringify(content) });
      // Set before the commit, in this same turn, so the after-commit hook that brings rooms
      // up to date with changes from outside sees nothing to do (external.ts): typing that
      // arrives before the commit is not mistaken for a change to track.
      replaceRoomContent(room, JSON.parse(page.contentJson));
      room.setVersion(page.currentVersionNumber);
      return page;
    }),
  );
  if (published) return published;
  // Nobody has it open: the caller learns that only about a page they may edit.
  requireEditablePage(core, caller, findPage(core, pageId));
  throw new AppError("room_not_open", { detail: "Nobody has this page open in a shared editing room on this server: send the document as contentJson instead." });
}
