/**
 * PUT /api/pages/{id}/tasks (the reading view's task boxes): who may, bad input, and how a tick
 * meets a shared editing room, open or stored, whose working copy holds unpublished words.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Y from "yjs";
import { openSynced, makeSpace, startCollabEnv, typeInto, until, type Account, type Client, type CollabEnv } from "../collab/testing";

let env: CollabEnv;
let owner: Account;
let viewer: Account;
let outsider: Account;
let spaceId: string;
const clients: Client[] = [];
const open = (as: Account, pageId: string) => openSynced(env, as, pageId, clients);

const para = (text: string) => ({ type: "paragraph", content: [{ type: "text", text }] });
const task = (text: string, checked = false) => ({ type: "taskItem", attrs: { checked }, content: [para(text)] });
const checklist = (...tasks: string[]) =>
  JSON.stringify({ type: "doc", content: [para("Before the release:"), { type: "taskList", content: tasks.map((t) => task(t)) }] });
const makeChecklist = async (...tasks: string[]) =>
  (await env.api("POST", "/api/pages", owner, { spaceId, title: "Checklist", contentJson: checklist(...tasks) })).body.id as string;
const tick = (pageId: string, body: unknown, as: Account | null = owner) => env.api("PUT", `/api/pages/${pageId}/tasks`, as, body);
const checkedOf = (contentJson: string) =>
  (JSON.parse(contentJson).content[1].content as Array<{ attrs: { checked: boolean } }>).map((t) => t.attrs.checked);
/** The checked attribute of each task item in a client's copy. */
const clientTicks = (c: Client) => {
  const list = c.fragment.toArray().find((n) => n instanceof Y.XmlElement && n.nodeName === "taskList") as Y.XmlElement;
  return list.toArray().map((item) => (item as Y.XmlElement).getAttribute("checked") as unknown);
};

beforeAll(async () => {
  env = await startCollabEnv();
  owner = await env.signUp("owner@example.com");
  viewer = await env.signUp("viewer@example.com", owner);
  outsider = await env.signUp("outsider@example.com", owner);
  spaceId = await makeSpace(env, owner, "TASKS", [[viewer.id, 0]]);
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await env.close();
});

describe("PUT /api/pages/{id}/tasks", () => {
  test("ticks one task as a small version of its own, named in its comment; the same state again adds nothing", async () => {
    const pageId = await makeChecklist("Write the notes", "Tag the build");
    const res = await tick(pageId, { index: 1, checked: true, baseVersion: 1 });
    expect(res.status).toBe(200);
    expect(res.body.currentVersionNumber).toBe(2);
    expect(checkedOf(res.body.contentJson)).toEqual([false, true]);
    const versions = (await env.api("GET", `/api/pages/${pageId}/versions`, owner)).body;
    expect(versions[0]).toMatchObject({ versionNumber: 2, changeComment: "Ticked “Tag the build”" });
    const again = await tick(pageId, { index: 1, checked: true });
    expect(again.body.currentVersionNumber).toBe(2);
    const untick = await tick(pageId, { index: 1, checked: false, baseVersion: 2 });
    expect(checkedOf(untick.body.contentJson)).toEqual([false, false]);
    expect((await env.api("GET", `/api/pages/${pageId}/versions`, owner)).body[0].changeComment).toBe("Unticked “Tag the build”");
  });

  test("bad input is a 400 naming the field; a stale base version 409; View only 403; unseen (anonymous too) 404", async () => {
    const pageId = await makeChecklist("One");
    for (const [body, field] of [
      [{ index: 5, checked: true }, "index"],
      [{ index: -1, checked: true }, "index"],
      [{ index: "0", checked: true }, "index"],
      [{ index: 0 }, "checked"],
      [{ index: 0, checked: "yes" }, "checked"],
      [{ index: 0, checked: true, baseVersion: 0 }, "baseVersion"],
    ] as const) {
      const res = await tick(pageId, body);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(field);
    }
    const plain = await env.api("POST", "/api/pages", owner, {
      spaceId,
      title: "No tasks",
      contentJson: JSON.stringify({ type: "doc", content: [para("x")] }),
    });
    expect((await tick(plain.body.id, { index: 0, checked: true })).body.detail ?? "").toContain("none");
    expect((await tick(pageId, { index: 0, checked: true, baseVersion: 7 })).status).toBe(409);
    expect((await tick(pageId, { index: 0, checked: true }, viewer)).status).toBe(403);
    expect((await tick(pageId, { index: 0, checked: true }, outsider)).status).toBe(404);
    expect((await tick(pageId, { index: 0, checked: true }, null)).status).toBe(404);
    expect((await env.api("GET", `/api/pages/${pageId}`, owner)).body.currentVersionNumber).toBe(1);
  });

  test("with the page open in a room: the editors get the tick at once, untracked, and keep their unpublished words", async () => {
    const pageId = await makeChecklist("Write the notes", "Tag the build", "Tag the build");
    const writer = await open(owner, pageId);
    typeInto(writer, " Unpublished words.");
    const reader = await open(owner, pageId);
    await until(() => reader.text().includes("Unpublished words."), 3000, "the room has the typing");
    const res = await tick(pageId, { index: 2, checked: true, baseVersion: 1 });
    expect(res.status).toBe(200);
    // Only the published version is ticked: the room's words are not in it.
    expect(res.body.contentJson).not.toContain("Unpublished");
    await until(() => clientTicks(writer)[2] === true, 3000, "the tick reaches the editor");
    expect(clientTicks(writer)).toEqual([false, false, true]);
    expect(writer.text()).toContain("Unpublished words.");
    expect(JSON.stringify(writer.fragment.toJSON())).not.toMatch(/insertion|deletion/);
    expect(writer.doc.getMap("cairn").get("version")).toBe(2);
    // Update from the room then publishes both.
    const published = await env.api("PUT", `/api/pages/${pageId}`, owner, { contentFrom: "room", baseVersion: 2 });
    expect(published.status).toBe(200);
    expect(published.body.contentJson).toContain("Unpublished words.");
    expect(checkedOf(published.body.contentJson)).toEqual([false, false, true]);
  });

  test("with a working copy stored and nobody in the room: it follows, so opening it later shows nothing from outside", async () => {
    const pageId = await makeChecklist("Write the notes", "Tag the build");
    const writer = await open(owner, pageId);
    typeInto(writer, " Kept words.");
    await until(() => writer.provider.synced, 3000, "delivered");
    await new Promise((r) => setTimeout(r, 300));
    writer.destroy();
    await env.restart();
    const res = await tick(pageId, { index: 0, checked: true, baseVersion: 1 });
    expect(res.status).toBe(200);
    const again = await open(owner, pageId);
    expect(again.text()).toContain("Kept words.");
    expect(clientTicks(again)).toEqual([true, false]);
    expect(JSON.stringify(again.fragment.toJSON())).not.toMatch(/insertion|deletion/);
    expect(again.doc.getMap("cairn").get("version")).toBe(2);
  });
});
