/**
 * Publishing a room whose working copy holds what the editor schema does not know
 * (docs/decisions.md, "What a collaboration room accepts"): unknown elements, marks and attributes
 * are left out and the rest is published; a value the check refuses (a link's address) is a 400
 * that names the link in words.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Y from "yjs";
import { makePage, makeSpace, openSynced, startCollabEnv, until, type Account, type Client, type CollabEnv } from "./testing";

let env: CollabEnv;
let owner: Account;
let spaceId: string;
const clients: Client[] = [];

beforeAll(async () => {
  env = await startCollabEnv();
  owner = await env.signUp("owner@example.com");
  spaceId = await makeSpace(env, owner, "ROOMS", []);
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await env.close();
});

const paragraph = (text: string, format?: Record<string, unknown>) => {
  const p = new Y.XmlElement("paragraph");
  const t = new Y.XmlText();
  p.insert(0, [t]);
  t.insert(0, text, format);
  return p;
};

/** Writes into the room as a client, and waits until the server has it (a second client sees it). */
async function write(pageId: string, change: (c: Client) => void): Promise<void> {
  const a = await openSynced(env, owner, pageId, clients);
  const b = await openSynced(env, owner, pageId, clients);
  change(a);
  await until(() => b.fragment.toString() === a.fragment.toString(), 3000, "the change reached the room");
  expect(a.closes).toEqual([]);
}

const publish = (pageId: string) => env.api("PUT", `/api/pages/${pageId}`, owner, { contentFrom: "room", baseVersion: 1 });

describe("Update reads the room as the schema knows it", () => {
  test("an unknown element, mark and attribute are left out; the rest is published (2xx, not 500)", async () => {
    const pageId = await makePage(env, owner, spaceId, "Start");
    await write(pageId, (c) =>
      c.doc.transact(() => {
        const blink = new Y.XmlElement("blink");
        blink.insert(0, [paragraph("inside the unknown element")]);
        const odd = paragraph("Sparkling", { sparkle: { level: 9 }, bold: {} });
        odd.setAttribute("onclick", "alert(1)");
        c.fragment.insert(c.fragment.length, [blink, odd, paragraph("End")]);
      }),
    );
    const res = await publish(pageId);
    expect(res.status).toBe(200);
    const doc = JSON.parse(res.body.contentJson);
    expect(doc.content.map((n: { content?: Array<{ text: string }> }) => n.content?.[0]?.text)).toEqual(["Start", "Sparkling", "End"]);
    expect(doc.content[1]).toEqual({ type: "paragraph", content: [{ type: "text", text: "Sparkling", marks: [{ type: "bold" }] }] });
    expect(res.body.contentJson).not.toContain("blink");
    expect(res.body.contentJson).not.toContain("sparkle");
  });
});

describe("a refused link is named, not a bare path", () => {
  test("Update with a javascript: link answers 400 naming the link's text and address, and what to do", async () => {
    const pageId = await makePage(env, owner, spaceId, "Intro");
    await write(pageId, (c) => c.fragment.insert(1, [paragraph("Click me", { link: { href: "javascript:alert(1)" } })]));
    const res = await publish(pageId);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("contentJson");
    expect(res.body.detail).toContain("The link “Click me” to “javascript:alert(1)” cannot be published");
    expect(res.body.detail).toContain("Select the link and change its address");
    expect(res.body.link).toEqual({ text: "Click me", href: "javascript:alert(1)" });
    // Nothing was published.
    expect((await env.api("GET", `/api/pages/${pageId}`, owner)).body.currentVersionNumber).toBe(1);
  });

  test("another refusal names the passage it is in", async () => {
    const pageId = await makePage(env, owner, spaceId, "Intro");
    await write(pageId, (c) => {
      const h = new Y.XmlElement("heading");
      h.setAttribute("level", 42 as never);
      h.insert(0, [new Y.XmlText("A heading too deep")]);
      c.fragment.insert(1, [h]);
    });
    const res = await publish(pageId);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("Part of the page cannot be published, near “A heading too deep”");
    expect(res.body.detail).toContain("Change or remove it, then Update again.");
  });
});
