/**
 * A page changed from outside its room (the API, a version restore, a draft publish, an
 * import) while the room is loaded, or while it was stored with edits of its own: the committed
 * version is what the page holds, and the working copy is brought to it without losing anyone's
 * typing.
 */
import type { JSONContent } from "@tiptap/core";
import { replaceRoomContent, roomContent } from "./content";
import type { Room } from "./room";
import { sameDocument } from "./service";

export function applyExternalChange(room: Room, incoming: JSONContent, version: number, _authorId: string | null): void {
  const storedIncoming = JSON.stringify(incoming);
  if (!sameDocument(roomContent(room), storedIncoming)) replaceRoomContent(room, incoming);
  room.setVersion(version);
}
