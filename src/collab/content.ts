/**
 * Between a room's Yjs XML fragment and a page's ProseMirror JSON (the editor schema of
 * src/content), with y-tiptap, the conversions TipTap's Collaboration extension uses itself.
 */
import type { JSONContent } from "@tiptap/core";
import { Node as PMNode } from "@tiptap/pm/model";
import { prosemirrorJSONToYXmlFragment, updateYFragment, yXmlFragmentToProsemirrorJSON } from "@tiptap/y-tiptap";
import { contentSchema, emptyDocument } from "../content/schema";
import { SERVER_ORIGIN, type Room } from "./room";
import type * as Y from "yjs";

/** Fills an empty fragment with a document (a room's first load). */
export function seedFragment(doc: Y.Doc, fragment: Y.XmlFragment, content: JSONContent): void {
  doc.transact(() => prosemirrorJSONToYXmlFragment(contentSchema, content, fragment), SERVER_ORIGIN);
}

/** The room's working copy as ProseMirror JSON (an empty fragment reads as one empty paragraph). */
export function roomContent(room: Room): JSONContent {
  const json = yXmlFragmentToProsemirrorJSON(room.fragment) as JSONContent;
  return json.content?.length ? json : emptyDocument();
}

/**
 * Brings the room's working copy to `content` with the smallest change y-tiptap finds (unchanged
 * blocks and text are kept, so the carets in them stay where they are), as one transaction by
 * the server: every client receives it as one update.
 */
export function replaceRoomContent(room: Room, content: JSONContent): void {
  const node = PMNode.fromJSON(contentSchema, content);
  room.doc.transact(() => updateYFragment(room.doc, room.fragment, node, { mapping: new Map(), isOMark: new Map() }), SERVER_ORIGIN);
}
