import { describe, expect, test } from "bun:test";
import { applyAwarenessUpdate, Awareness, encodeAwarenessUpdate } from "y-protocols/awareness";
import * as Y from "yjs";
import { CaretOwner, Carets } from "./carets";

describe("carets, in y-protocols' own format", () => {
  test("newer clocks win, older ones are ignored, and what the server hands out reads as the client sent it", () => {
    const client = new Awareness(new Y.Doc());
    const carets = new Carets();
    const ann = new CaretOwner({ id: "u1", name: "Ann", color: "#0b57d0" });
    client.setLocalStateField("user", { name: "Ann" });
    const first = encodeAwarenessUpdate(client, [client.clientID]);
    client.setLocalStateField("cursor", { anchor: 3 });
    const second = encodeAwarenessUpdate(client, [client.clientID]);
    expect(carets.apply(ann, second, 0)).not.toBeNull();
    expect(carets.apply(ann, first, 0)).toBeNull();
    const reader = new Awareness(new Y.Doc());
    applyAwarenessUpdate(reader, carets.snapshot()!, null);
    expect(reader.getStates().get(client.clientID)).toEqual({ user: { id: "u1", name: "Ann", color: "#0b57d0" }, cursor: { anchor: 3 } });
    // Removed by the server: the others read it as gone.
    applyAwarenessUpdate(reader, carets.remove([client.clientID], 0)!, null);
    expect(reader.getStates().has(client.clientID)).toBe(false);
    expect(carets.snapshot()).toBeNull();
    client.destroy();
    reader.destroy();
  });
});
