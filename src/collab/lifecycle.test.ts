import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { JSONContent } from "@tiptap/core";
import { yXmlFragmentToProsemirrorJSON } from "@tiptap/y-tiptap";
import { acceptAll, listChanges, rejectAll } from "../content/tracked-changes";
import {
  openSynced,
  makePage,
  makeSpace,
  paragraphs,
  startCollabEnv,
  typeInto,
  until,
  type Account,
  type Client,
  type CollabEnv,
} from "./testing";

let env: CollabEnv;
let owner: Account;
let editor: Account;
let spaceId: string;
const clients: Client[] = [];
const open = (as: Account, pageId: string) => openSynced(env, as, pageId, clients);
const docOf = (c: Client) => yXmlFragmentToProsemirrorJSON(c.fragment) as JSONContent;
const closedWith = async (c: Client, code: number) => {
  await until(() => c.closes.length > 0, 3000, `close ${code}`);
  expect(c.closes[0].code).toBe(code);
  expect(c.closes[0].reason.length).toBeGreaterThan(10);
  expect(c.provider.shouldConnect).toBe(false);
};

beforeAll(async () => {
  env = await startCollabEnv();
  owner = await env.signUp("owner@example.com");
  editor = await env.signUp("editor@example.com", owner);
  spaceId = await makeSpace(env, owner, "LIFE", [[editor.id, 1]]);
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await env.close();
});

describe("persistence", () => {
  test("a server restart during editing loses nothing that reached the server", async () => {
    const pageId = await makePage(env, owner, spaceId, "Before");
    const [a, b] = [await open(owner, pageId), await open(owner, pageId)];
    typeInto(a, " typed");
    // It reached the server: the other client has it.
    await until(() => b.text() === "Before typed", 3000, "b has the typing");
    a.destroy();
    b.destroy();
    await env.restart();
    const fresh = await open(owner, pageId);
    expect(fresh.text()).toBe("Before typed");
    // The unpublished working copy is not the page's version.
    expect((await env.api("GET", `/api/pages/${pageId}`, owner)).body.currentVersionNumber).toBe(1);
  });

  test("a client connected across a restart reconnects and carries on", async () => {
    const pageId = await makePage(env, owner, spaceId, "Across");
    const a = await open(owner, pageId);
    await env.restart();
    await until(() => a.provider.wsconnected && a.provider.synced, 5000, "reconnected");
    typeInto(a, " after");
    const b = await open(owner, pageId);
    await until(() => b.text() === "Across after", 3000, "b sees typing after the restart");
  });
});

describe("publishing the room (PUT contentFrom: room)", () => {
  test("publishes the working copy as the next version; everyone sees the new number", async () => {
    const pageId = await makePage(env, owner, spaceId, "Draft text");
    const [a, b] = [await open(owner, pageId), await open(editor, pageId)];
    typeInto(b, " by the editor");
    await until(() => a.text() === "Draft text by the editor", 3000, "a has it");
    const res = await env.api("PUT", `/api/pages/${pageId}`, owner, { contentFrom: "room", baseVersion: 1, changeComment: "Update" });
    expect(res.status).toBe(200);
    expect(res.body.currentVersionNumber).toBe(2);
    expect(JSON.parse(res.body.contentJson)).toEqual(paragraphs("Draft text by the editor"));
    await until(
      () => a.doc.getMap("cairn").get("version") === 2 && b.doc.getMap("cairn").get("version") === 2,
      3000,
      "version 2 everywhere",
    );
    // A stale base is the usual 409.
    expect((await env.api("PUT", `/api/pages/${pageId}`, owner, { contentFrom: "room", baseVersion: 1 })).body.code).toBe(
      "version_conflict",
    );
  });

  test("no room: 409 room_not_open; with contentJson or another value: 400 on contentFrom", async () => {
    const pageId = await makePage(env, owner, spaceId, "Closed");
    const closed = await env.api("PUT", `/api/pages/${pageId}`, owner, { contentFrom: "room" });
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe("room_not_open");
    const both = await env.api("PUT", `/api/pages/${pageId}`, owner, { contentFrom: "room", contentJson: JSON.stringify(paragraphs("x")) });
    expect(both.status).toBe(400);
    expect(both.body.field).toBe("contentFrom");
    const other = await env.api("PUT", `/api/pages/${pageId}`, owner, { contentFrom: "browser" });
    expect(other.status).toBe(400);
    expect(other.body.field).toBe("contentFrom");
  });
});

describe("changes from outside", () => {
  test("an API update during an open session arrives as tracked changes, and the page holds the API's text", async () => {
    const pageId = await makePage(env, owner, spaceId, "The quick fox", "Second line");
    const a = await open(owner, pageId);
    const b = await open(editor, pageId);
    typeInto(a, " jumps", 1);
    await until(() => b.text().includes("Second line jumps"), 3000, "b has the typing");
    const working = docOf(a);
    const api = paragraphs("The slow fox", "Second line");
    const res = await env.api("PUT", `/api/pages/${pageId}`, editor, { contentJson: JSON.stringify(api) });
    expect(res.status).toBe(200);
    // Committed first: the page holds the API's text.
    expect(JSON.parse((await env.api("GET", `/api/pages/${pageId}`, owner)).body.contentJson)).toEqual(api);
    await until(() => a.doc.getMap("cairn").get("version") === 2 && b.doc.getMap("cairn").get("version") === 2, 3000, "version 2");
    const shown = docOf(a);
    expect(docOf(b)).toEqual(shown);
    const kinds = listChanges(shown).map((c) => `${c.kind}:${c.text}`);
    expect(kinds).toContain("insertion:slow");
    expect(kinds).toContain("deletion:quick");
    expect(kinds).toContain("deletion: jumps");
    expect(listChanges(shown).every((c) => c.authorId === editor.id)).toBe(true);
    expect(acceptAll(shown)).toEqual(api);
    expect(rejectAll(shown)).toEqual(rejectAll(working));
    // Publishing now accepts them: no tracked mark is ever stored in a version.
    const published = await env.api("PUT", `/api/pages/${pageId}`, owner, { contentFrom: "room", baseVersion: 2 });
    expect(published.status).toBe(200);
    expect(published.body.contentJson).not.toContain("insertion");
    expect(listChanges(docOf(a))).toEqual([]);
  });

  test("a document sent with tracked changes is stored with them accepted", async () => {
    const pageId = await makePage(env, owner, spaceId, "Plain");
    const mark = (type: string) => ({ type, attrs: { id: "c1", authorId: null, createdAt: null } });
    const marked = {
      type: "doc",
      content: [
        {
          type: "paragraph",
          content: [
            { type: "text", text: "Kept " },
            { type: "text", text: "added", marks: [mark("insertion")] },
            { type: "text", text: "removed", marks: [mark("deletion")] },
          ],
        },
      ],
    };
    const res = await env.api("PUT", `/api/pages/${pageId}`, owner, { contentJson: JSON.stringify(marked) });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.contentJson)).toEqual(paragraphs("Kept added"));
  });

  test("a version restore reaches the open room too", async () => {
    const pageId = await makePage(env, owner, spaceId, "One");
    await env.api("PUT", `/api/pages/${pageId}`, owner, { contentJson: JSON.stringify(paragraphs("Two")) });
    const a = await open(owner, pageId);
    expect(a.text()).toBe("Two");
    expect((await env.api("POST", `/api/pages/${pageId}/versions/1/restore`, owner)).status).toBe(200);
    await until(() => a.doc.getMap("cairn").get("version") === 3, 3000, "version 3");
    expect(acceptAll(docOf(a))).toEqual(paragraphs("One"));
  });

  test("a draft saved through the API reaches its room too (drafts record no event)", async () => {
    const draft = (await env.api("POST", "/api/pages/draft", owner, { spaceId })).body.id as string;
    await env.api("PUT", `/api/pages/${draft}`, owner, { contentJson: JSON.stringify(paragraphs("Draft one")) });
    const a = await open(owner, draft);
    expect(a.text()).toBe("Draft one");
    const version = a.doc.getMap("cairn").get("version") as number;
    await env.api("PUT", `/api/pages/${draft}`, owner, { contentJson: JSON.stringify(paragraphs("Draft two")) });
    await until(() => a.doc.getMap("cairn").get("version") === version + 1, 3000, "draft version");
    expect(acceptAll(docOf(a))).toEqual(paragraphs("Draft two"));
  });

  test("a page changed while nobody had it open: an untouched working copy simply follows", async () => {
    const pageId = await makePage(env, owner, spaceId, "Old");
    (await open(owner, pageId)).destroy();
    await Bun.sleep(50);
    await env.api("PUT", `/api/pages/${pageId}`, owner, { contentJson: JSON.stringify(paragraphs("New")) });
    const a = await open(owner, pageId);
    expect(a.text()).toBe("New");
    expect(listChanges(docOf(a))).toEqual([]);
    expect(a.doc.getMap("cairn").get("version")).toBe(2);
  });
});

describe("closing connections", () => {
  test("rights revoked while connected close the socket: Edit taken 4403, View taken 4404", async () => {
    const lost = await env.signUp("lost@example.com", owner);
    await makeSpace(env, owner, "REVOKE", [[lost.id, 1]]);
    const space = (await env.api("GET", "/api/spaces/REVOKE", owner)).body.id;
    const pageId = await makePage(env, owner, space, "Revoke");
    const [keeps, loses] = [await open(owner, pageId), await open(lost, pageId)];
    // Down to View: may still read, may no longer edit.
    expect(
      (await env.api("POST", "/api/spaces/REVOKE/permissions", owner, { principalType: 0, principalId: lost.id, operation: 0 })).status,
    ).toBe(200);
    await closedWith(loses, 4403);
    expect(keeps.provider.wsconnected).toBe(true);
    // Edit again, connected again; then no grant at all: the page is no longer visible.
    await env.api("POST", "/api/spaces/REVOKE/permissions", owner, { principalType: 0, principalId: lost.id, operation: 1 });
    const again = await open(lost, pageId);
    const grants = (await env.api("GET", "/api/spaces/REVOKE/permissions", owner)).body as Array<{ id: string; principalId: string }>;
    const grant = grants.find((g) => g.principalId === lost.id)!;
    expect((await env.api("DELETE", `/api/spaces/REVOKE/permissions/${grant.id}`, owner)).status).toBe(204);
    await closedWith(again, 4404);
    expect(keeps.provider.wsconnected).toBe(true);
  });

  test("a suspended account is closed out (4403), by the sweep when no event says so", async () => {
    const suspended = await env.signUp("suspended@example.com", owner);
    await makeSpace(env, owner, "SUSP", [[suspended.id, 1]]);
    const space = (await env.api("GET", "/api/spaces/SUSP", owner)).body.id;
    const pageId = await makePage(env, owner, space, "Suspend");
    const a = await open(suspended, pageId);
    // No API suspends an account yet: the status is set as an administrator's tool would.
    env.server.core.sqlite.query("UPDATE users SET status = 1 WHERE id = ?").run(suspended.id);
    await closedWith(a, 4403);
  });

  test("a trashed page closes its room (4404)", async () => {
    const pageId = await makePage(env, owner, spaceId, "Trash me");
    const a = await open(editor, pageId);
    expect((await env.api("DELETE", `/api/pages/${pageId}`, owner)).status).toBeLessThan(300);
    await closedWith(a, 4404);
  });

  test("an archived space closes its rooms (4423)", async () => {
    await makeSpace(env, owner, "ARCH", []);
    const space = (await env.api("GET", "/api/spaces/ARCH", owner)).body.id;
    const pageId = await makePage(env, owner, space, "Archive me");
    const a = await open(owner, pageId);
    expect((await env.api("POST", "/api/spaces/ARCH/archive", owner)).status).toBe(200);
    await closedWith(a, 4423);
  });

  test("a client flooding messages is cut off (4429) while the others carry on", async () => {
    const pageId = await makePage(env, owner, spaceId, "Flood");
    const [a, b] = [await open(owner, pageId), await open(editor, pageId)];
    const token = (await env.api("GET", `/api/pages/${pageId}/collab-token`, editor)).body.token;
    const flooder = new WebSocket(`${env.wsUrl}/${pageId}?token=${token}`);
    const closed = new Promise<CloseEvent>((resolve) => (flooder.onclose = resolve));
    await new Promise((resolve) => (flooder.onopen = resolve));
    // Query-awareness messages (type 3), as fast as the socket takes them.
    for (let i = 0; i < 2000 && flooder.readyState === WebSocket.OPEN; i++) flooder.send(new Uint8Array([3]));
    const event = await closed;
    expect(event.code).toBe(4429);
    typeInto(a, " still");
    await until(() => b.text() === "Flood still", 3000, "the others carry on");
    expect(a.provider.wsconnected && b.provider.wsconnected).toBe(true);
  });

  test("a message over the size cap closes that connection (4413)", async () => {
    const pageId = await makePage(env, owner, spaceId, "Big");
    const token = (await env.api("GET", `/api/pages/${pageId}/collab-token`, owner)).body.token;
    const ws = new WebSocket(`${env.wsUrl}/${pageId}?token=${token}`);
    const closed = new Promise<CloseEvent>((resolve) => (ws.onclose = resolve));
    await new Promise((resolve) => (ws.onopen = resolve));
    ws.send(new Uint8Array(3 * 1024 * 1024).fill(1));
    expect((await closed).code).toBe(4413);
  });
});
