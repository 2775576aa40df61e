import { describe, expect, test } from "bun:test";
import * as Y from "yjs";
import { everythingDocument } from "../content/testing";
import { sampleDocument } from "../content/sample";
import { checkContentJson } from "../content/validate";
import { replaceRoomContent, roomContent, seedFragment } from "./content";
import { Room } from "./room";

const stored = (doc: unknown) => checkContentJson(JSON.stringify(doc)).json;
const roomWith = (doc: unknown) => {
  const room = new Room("p", new Y.Doc(), () => {});
  seedFragment(room.doc, room.fragment, JSON.parse(stored(doc)));
  return room;
};

describe("a page through a room and back", () => {
  test("every node and mark of the schema survives the round trip unchanged", () => {
    for (const doc of [everythingDocument(), sampleDocument(7, 800)]) {
      expect(stored(roomContent(roomWith(doc)))).toBe(stored(doc));
    }
  });

  test("replacing the content changes only what differs (other clients' positions survive)", () => {
    const room = roomWith(sampleDocument(3, 300));
    const other = new Y.Doc();
    Y.applyUpdate(other, Y.encodeStateAsUpdate(room.doc));
    const firstBlock = room.fragment.get(0);
    const next = JSON.parse(stored(sampleDocument(3, 300)));
    next.content.push({ type: "paragraph", content: [{ type: "text", text: "Added at the end" }] });
    replaceRoomContent(room, next);
    expect(room.fragment.get(0)).toBe(firstBlock);
    expect(stored(roomContent(room))).toBe(stored(next));
    Y.applyUpdate(other, Y.encodeStateAsUpdate(room.doc, Y.encodeStateVector(other)));
    expect(other.getXmlFragment("default").toString()).toBe(room.fragment.toString());
  });
});
