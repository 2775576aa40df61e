import { describe, expect, test } from "bun:test";
import { applyAwarenessUpdate, Awareness, encodeAwarenessUpdate } from "y-protocols/awareness";
import * as Y from "yjs";
import { Carets } from "./carets";

describe("carets, in y-protocols' own format", () => {
  test("newer clocks win, older ones are ignored, and what the server hands out reads as the client sent it", () => {
    const client = new Awareness(new Y.Doc());
    const carets = new Carets();
    client.setLocalStateField("user", { name: "Ann" });
    const first = encodeAwarenessUpdate(client, [client.clientID]);
    client.setLocalStateField("cursor", { anchor: 3 });
    const second = encodeAwarenessUpdate(client, [client.clientID]);
    expect(carets.apply(second, 0).present).toEqual([client.clientID]);
    expect(carets.apply(first, 0)).toEqual({ present: [], gone: [] });
    const reader = new Awareness(new Y.Doc());
    applyAwarenessUpdate(reader, carets.snapshot()!, null);
    expect(reader.getStates().get(client.clientID)).toEqual({ user: { name: "Ann" }, cursor: { anchor: 3 } });
    // Removed by the server: the others read it as gone.
    applyAwarenessUpdate(reader, carets.remove([client.clientID], 0)!, null);
    expect(reader.getStates().has(client.clientID)).toBe(false);
    expect(carets.snapshot()).toBeNull();
    client.destroy();
    reader.destroy();
  });
});
