/**
 * A page changed from outside its room (the API, a version restore, a draft publish, an
 * import) while the room is loaded, or while it was stored with edits of its own. The committed
 * version is what the page holds; the room shows it as tracked changes against the working
 * copy (content/tracked-changes.ts): text only the new version has is marked `insertion`, text
 * only the working copy has stays, marked `deletion`. Accept all gives exactly the new version,
 * Reject all the working copy as it was. Nobody's typing is overwritten.
 */
import type { JSONContent } from "@tiptap/core";
import { acceptAll, trackChanges } from "../content/tracked-changes";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { replaceRoomContent, roomContent } from "./content";
import type { Room } from "./room";
import { sameDocument } from "./service";

export interface ExternalVersion {
  content: JSONContent;
  version: number;
  authorId: string | null;
  at: number;
}

export function applyExternalChange(room: Room, incoming: ExternalVersion): void {
  const storedJson = JSON.stringify(incoming.content);
  let next: JSONContent = incoming.content;
  try {
    const working = roomContent(room);
    // Already there (the same text typed, or only the title or presentation changed): the
    // version number moves, and pending marks, all accepted by it, go.
    if (!sameDocument(acceptAll(working), storedJson)) {
      next = trackChanges(working, incoming.content, { id: newId(), authorId: incoming.authorId, createdAt: iso(incoming.at) });
    }
  } catch {
    // A working copy the schema cannot read (a client's bad structure): the committed version wins.
    next = incoming.content;
  }
  replaceRoomContent(room, next);
  room.setVersion(incoming.version);
}
