import { describe, expect, test } from "bun:test";
import * as Y from "yjs";
import { Room, type Peer } from "./room";
import { InProcessRoomHost, type RoomStorage } from "./room-host";

function storage() {
  const saved: string[] = [];
  let loads = 0;
  const s: RoomStorage = {
    load(pageId, changed) {
      loads++;
      const room = new Room(pageId, new Y.Doc(), changed);
      room.setVersion(1);
      return room;
    },
    save(rooms) {
      saved.push(rooms.map((r) => r.pageId).join(","));
    },
  };
  return { s, saved, loads: () => loads };
}

const peer = (): Peer & { sent: number } => {
  const p = { userId: "u", sent: 0, send: () => void p.sent++, close: () => {} };
  return p;
};
const type = (room: Room | undefined, text: string) => room!.doc.getText("t").insert(0, text);

describe("the in-process room host", () => {
  test("changes in several rooms are saved together after the delay, not per keystroke", async () => {
    const st = storage();
    const host = new InProcessRoomHost(st.s, { saveDelayMs: 30, idleMs: 1_000 });
    host.connect("a", peer());
    host.connect("b", peer());
    st.saved.length = 0; // the seeds
    for (let i = 0; i < 20; i++) {
      host.withLoadedRoom("a", (r) => type(r, "x"));
      host.withLoadedRoom("b", (r) => type(r, "y"));
    }
    expect(st.saved).toEqual([]);
    await Bun.sleep(60);
    expect(st.saved).toEqual(["a,b"]);
    host.close(1012, "bye");
  });

  test("the last one out saves at once; an idle room is unloaded, and loaded again on the next visit", async () => {
    const st = storage();
    const host = new InProcessRoomHost(st.s, { saveDelayMs: 10_000, idleMs: 30 });
    const a = host.connect("a", peer());
    const b = host.connect("a", peer());
    st.saved.length = 0;
    host.withLoadedRoom("a", (r) => type(r, "typed"));
    a.leave();
    expect(st.saved).toEqual([]);
    b.leave();
    expect(st.saved).toEqual(["a"]);
    expect(host.stats()).toEqual({ rooms: 1, peers: 0 });
    await Bun.sleep(60);
    expect(host.stats()).toEqual({ rooms: 0, peers: 0 });
    expect(host.withLoadedRoom("a", () => true)).toBeUndefined();
    host.connect("a", peer());
    expect(st.loads()).toBe(2);
    host.close(1012, "bye");
  });

  test("close() ends every connection with the code given and saves every room", () => {
    const st = storage();
    const host = new InProcessRoomHost(st.s, { saveDelayMs: 10_000, idleMs: 10_000 });
    const closed: number[] = [];
    const p = { ...peer(), close: (code: number) => void closed.push(code) };
    host.connect("a", p);
    st.saved.length = 0;
    host.withLoadedRoom("a", (r) => type(r, "unsaved"));
    host.close(1012, "The server is restarting.");
    expect(closed).toEqual([1012]);
    expect(st.saved).toEqual(["a"]);
    expect(host.stats()).toEqual({ rooms: 0, peers: 0 });
  });
});

describe("carets", () => {
  test("a caret not renewed for 30 s is dropped, and the others are told", async () => {
    const { encodeAwarenessUpdate, Awareness } = await import("y-protocols/awareness");
    const encoding = await import("lib0/encoding");
    const room = new Room("p", new Y.Doc(), () => {});
    const p = peer();
    room.join(p);
    const client = new Awareness(new Y.Doc());
    client.setLocalStateField("user", { name: "Ann" });
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 1);
    encoding.writeVarUint8Array(e, encodeAwarenessUpdate(client, [client.clientID]));
    room.receive(p, encoding.toUint8Array(e));
    expect(room.carets.has(client.clientID)).toBe(true);
    const sent = p.sent;
    room.expireAwareness(Date.now() + 10_000);
    expect(room.carets.has(client.clientID)).toBe(true);
    room.expireAwareness(Date.now() + 31_000);
    expect(room.carets.has(client.clientID)).toBe(false);
    expect(p.sent).toBe(sent + 1);
    client.destroy();
    room.destroy();
  });
});
