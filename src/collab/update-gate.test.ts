/**
 * What a room accepts (update-gate.ts), with stock y-websocket clients on a real server: the
 * page's text, nothing else. A refused change is not applied, not forwarded, not stored, and its
 * sender hears why.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as encoding from "lib0/encoding";
import * as syncProtocol from "y-protocols/sync";
import * as Y from "yjs";
import { loadDocument, saveDocuments } from "./store";
import {
  connect,
  makePage,
  makeSpace,
  openSynced,
  startCollabEnv,
  synced,
  typeInto,
  until,
  type Account,
  type Client,
  type CollabEnv,
} from "./testing";
import { MAX_WORKING_COPY_BYTES } from "./update-gate";

let env: CollabEnv;
let owner: Account;
let spaceId: string;
const clients: Client[] = [];

beforeAll(async () => {
  env = await startCollabEnv();
  owner = await env.signUp("owner@example.com");
  spaceId = await makeSpace(env, owner, "GATE", []);
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await env.close();
});

/** The stored working copy, read back into a document of its own. */
function stored(pageId: string): Y.Doc {
  const doc = new Y.Doc();
  const row = loadDocument(env.server.core, pageId);
  if (row) Y.applyUpdate(doc, row.state);
  return doc;
}

/** An update sent as it is, as a hostile client would (a Y.Doc would hold back an incomplete one). */
function sendUpdate(c: Client, update: Uint8Array): void {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, 0);
  syncProtocol.writeUpdate(encoder, update);
  c.provider.ws!.send(encoding.toUint8Array(encoder));
}

const closedWith = (c: Client, code: number) => until(() => c.closes.some((e) => e.code === code), 5000, `close ${code}`);

describe("only the page's text is accepted", () => {
  test("writes into another top-level type are refused: not kept, not sent to newcomers, not stored across a restart", async () => {
    const pageId = await makePage(env, owner, spaceId, "Text");
    const a = await openSynced(env, owner, pageId, clients);
    const watcher = await openSynced(env, owner, pageId, clients);
    typeInto(a, " kept");
    await until(() => watcher.text() === "Text kept", 3000, "typing arrives");
    const junk = a.doc.getMap("junk");
    a.doc.transact(() => {
      for (let i = 0; i < 1000; i++) junk.set(`k${i}`, "x".repeat(100));
    });
    await closedWith(a, 4415);
    expect(a.closes.find((e) => e.code === 4415)!.reason).toContain("outside the page's text");
    await Bun.sleep(100);
    expect(watcher.doc.share.has("junk")).toBe(false);
    const newcomer = await openSynced(env, owner, pageId, clients);
    expect(newcomer.doc.getMap("junk").size).toBe(0);
    expect(newcomer.text()).toBe("Text kept");
    for (const c of [watcher, newcomer]) c.provider.disconnect();
    await env.restart();
    expect(stored(pageId).getMap("junk").size).toBe(0);
    const after = await openSynced(env, owner, pageId, clients);
    expect(after.doc.getMap("junk").size).toBe(0);
    expect(after.text()).toBe("Text kept");
  });

  test("a Y.Map inside the fragment is refused, and so is a change to the server's room facts", async () => {
    const pageId = await makePage(env, owner, spaceId, "Facts");
    const a = await openSynced(env, owner, pageId, clients);
    a.fragment.insert(a.fragment.length, [new Y.Map() as unknown as Y.XmlElement]);
    await closedWith(a, 4415);
    const b = await openSynced(env, owner, pageId, clients);
    b.doc.getMap("cairn").set("version", 99);
    await closedWith(b, 4415);
    const c = await openSynced(env, owner, pageId, clients);
    expect(c.doc.getMap("cairn").get("version")).toBe(1);
    expect(c.fragment.length).toBe(1);
  });

  test("a change built on content the room does not have is refused (Yjs would keep it pending for ever)", async () => {
    const pageId = await makePage(env, owner, spaceId, "Base");
    const a = await openSynced(env, owner, pageId, clients);
    // A document the server never saw: its second change refers to its first.
    const elsewhere = new Y.Doc();
    const p = new Y.XmlElement("paragraph");
    elsewhere.getXmlFragment("default").insert(0, [p]);
    const before = Y.encodeStateVector(elsewhere);
    p.insert(0, [new Y.XmlText("orphan")]);
    sendUpdate(a, Y.encodeStateAsUpdate(elsewhere, before));
    await closedWith(a, 4409);
    const b = await openSynced(env, owner, pageId, clients);
    expect(b.text()).toBe("Base");
  });

  test("elements nested deeper than a page may be are refused (reading the room would overflow the stack)", async () => {
    const pageId = await makePage(env, owner, spaceId, "Shallow");
    const a = await openSynced(env, owner, pageId, clients);
    a.doc.transact(() => {
      let outer = new Y.XmlElement("blockquote");
      a.fragment.insert(a.fragment.length, [outer]);
      for (let i = 0; i < 20_000; i++) {
        const inner = new Y.XmlElement("blockquote");
        outer.insert(0, [inner]);
        outer = inner;
      }
    });
    await closedWith(a, 4415);
    expect(a.closes.find((e) => e.code === 4415)!.reason).toContain("nested deeper");
    // The room reads and publishes as before.
    const res = await env.api("PUT", `/api/pages/${pageId}`, owner, { contentFrom: "room", baseVersion: 1, changeComment: "still fine" });
    expect(res.status).toBe(200);
  });

  test("ordinary editing still works: paragraphs, formatting, attributes, deletions", async () => {
    const pageId = await makePage(env, owner, spaceId, "One", "Two");
    const a = await openSynced(env, owner, pageId, clients);
    const b = await openSynced(env, owner, pageId, clients);
    a.doc.transact(() => {
      const h = new Y.XmlElement("heading");
      h.setAttribute("level", 2 as never);
      const t = new Y.XmlText();
      h.insert(0, [t]);
      t.insert(0, "Title", { bold: {} });
      a.fragment.insert(0, [h]);
      a.fragment.delete(2, 1);
    });
    await until(() => b.fragment.length === 2 && (b.fragment.get(0) as Y.XmlElement).nodeName === "heading", 3000, "edits arrive");
    const heading = b.fragment.get(0) as Y.XmlElement;
    expect(heading.getAttribute("level")).toBe(2 as never);
    expect((heading.get(0) as Y.XmlText).toDelta()).toEqual([{ insert: "Title", attributes: { bold: {} } }]);
    expect(a.closes).toEqual([]);
  });
});

describe("a copy stored before the check", () => {
  test("keeps only the page's text once loaded: the junk is not sent, and is gone from the next save", async () => {
    const pageId = await makePage(env, owner, spaceId, "Old copy");
    const first = await openSynced(env, owner, pageId, clients);
    const second = await openSynced(env, owner, pageId, clients);
    typeInto(first, " typed");
    await until(() => second.text() === "Old copy typed", 3000, "typing reached the room");
    for (const c of [first, second]) c.provider.disconnect();
    await env.restart();
    // Junk as an earlier build stored it: another type, and a Y.Map inside the fragment.
    const doc = stored(pageId);
    doc.transact(() => {
      const junk = doc.getMap("junk");
      for (let i = 0; i < 500; i++) junk.set(`k${i}`, "x".repeat(1000));
      doc.getXmlFragment("default").insert(1, [new Y.Map() as unknown as Y.XmlElement]);
    });
    const version = loadDocument(env.server.core, pageId)!.version;
    saveDocuments(env.server.core, [{ pageId, state: Y.encodeStateAsUpdate(doc), version }]);
    const reader = await openSynced(env, owner, pageId, clients);
    expect(reader.doc.getMap("junk").size).toBe(0);
    expect(reader.text()).toBe("Old copy typed");
    expect(reader.fragment.length).toBe(1);
    reader.provider.disconnect();
    await env.restart();
    const after = loadDocument(env.server.core, pageId)!.state;
    expect(after.byteLength).toBeLessThan(50_000);
    expect(stored(pageId).getMap("junk").size).toBe(0);
  });
});

describe("the working copy is bounded", () => {
  test(`past ${MAX_WORKING_COPY_BYTES / 1024 / 1024} MiB the change is refused and the editor is told the page is too large`, async () => {
    const pageId = await makePage(env, owner, spaceId, "Big");
    const a = await openSynced(env, owner, pageId, clients);
    const watcher = await openSynced(env, owner, pageId, clients);
    // 1.5 MB per change, as far as the room takes them.
    for (let i = 0; i < 4 && !a.closes.length; i++) {
      typeInto(a, "y".repeat(1_500_000));
      await Bun.sleep(300);
    }
    await closedWith(a, 4413);
    expect(a.closes.find((e) => e.code === 4413)!.reason).toContain("too large to keep editing together");
    await Bun.sleep(100);
    const kept = Y.encodeStateAsUpdate(watcher.doc).byteLength;
    expect(kept).toBeLessThanOrEqual(MAX_WORKING_COPY_BYTES);
    expect(kept).toBeGreaterThan(2_000_000);
    // Someone else may still make the page smaller.
    const b = await connect(env, owner, pageId);
    clients.push(b);
    await synced(b);
    const t = (b.fragment.get(0) as Y.XmlElement).get(0) as Y.XmlText;
    t.delete(3, t.length - 3);
    typeInto(b, "!");
    await until(() => watcher.text() === "Big!", 3000, "a deletion and typing are accepted");
  });
});
