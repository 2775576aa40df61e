/**
 * Who has unpublished changes in a page's shared working copy, with real y-websocket clients
 * against the real server: recorded per person, kept across a restart, emptied by publishing (which
 * credits each author in the version), checked against the published version, and one person's own
 * changes taken back on the server (docs/decisions.md, "Publishing stays an explicit step").
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
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
let ada: Account;
let grace: Account;
let reader: Account;
let spaceId: string;
const clients: Client[] = [];
const open = (as: Account, pageId: string) => openSynced(env, as, pageId, clients);
const names = async (pageId: string, as: Account = ada) => {
  const res = await env.api("GET", `/api/pages/${pageId}/unpublished`, as);
  expect(res.status).toBe(200);
  return (res.body.authors as Array<{ name: string }>).map((a) => a.name);
};
/** The server has applied the client's typing once another client sees it. */
const delivered = (to: Client, text: string) => until(() => to.text().includes(text), 3000, `"${text}" delivered`);
/** y-websocket sends an update on its own turn: a client's deletion in the same turn as its insertion. */
const deleteText = (c: Client, from: number, length: number) => {
  const p = c.fragment.get(0) as import("yjs").XmlElement;
  (p.get(0) as import("yjs").XmlText).delete(from, length);
};

beforeAll(async () => {
  env = await startCollabEnv();
  ada = await env.signUp("ada@example.com");
  grace = await env.signUp("grace@example.com", ada);
  reader = await env.signUp("reader@example.com", ada);
  // Grace may edit; the reader may only read (1 Edit, 0 View).
  spaceId = await makeSpace(env, ada, "UNPUB", [
    [grace.id, 1],
    [reader.id, 0],
  ]);
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await env.close();
});

describe("who has unpublished changes", () => {
  test("each person whose typing changed the working copy is listed, first changes first, and the list survives a restart", async () => {
    const pageId = await makePage(env, ada, spaceId, "Plan");
    expect(await names(pageId)).toEqual([]);
    const [a, g] = [await open(ada, pageId), await open(grace, pageId)];
    // Being in the room changes nothing.
    expect(await names(pageId)).toEqual([]);
    typeInto(a, " by Ada");
    await delivered(g, "by Ada");
    typeInto(g, " and Grace");
    await delivered(a, "and Grace");
    expect(await names(pageId, grace)).toEqual(["ada", "grace"]);
    a.destroy();
    g.destroy();
    await env.restart();
    expect(await names(pageId)).toEqual(["ada", "grace"]);
  });

  test("readers who may not edit are refused (403), and those who cannot see the page get 404", async () => {
    const pageId = await makePage(env, ada, spaceId, "Secret plan");
    expect((await env.api("GET", `/api/pages/${pageId}/unpublished`, reader)).status).toBe(403);
    const outsider = await env.signUp("outsider@example.com", ada);
    expect((await env.api("GET", `/api/pages/${pageId}/unpublished`, outsider)).status).toBe(404);
    expect((await env.api("GET", `/api/pages/${pageId}/unpublished`, null)).status).toBe(404);
  });

  test("typing undone by hand leaves nothing unpublished: the copy equals the version again", async () => {
    const pageId = await makePage(env, ada, spaceId, "Same");
    const [a, g] = [await open(ada, pageId), await open(grace, pageId)];
    typeInto(a, "!!");
    await delivered(g, "Same!!");
    expect(await names(pageId)).toEqual(["ada"]);
    deleteText(a, 4, 2);
    await until(() => g.text() === "Same", 3000, "deletion delivered");
    expect(await names(pageId)).toEqual([]);
  });
});

describe("publishing", () => {
  test("Update publishes everyone's changes, credits each of them in the version, and empties the list", async () => {
    const pageId = await makePage(env, ada, spaceId, "Notes");
    const [a, g] = [await open(ada, pageId), await open(grace, pageId)];
    typeInto(a, " from Ada");
    await delivered(g, "from Ada");
    typeInto(g, " from Grace");
    await delivered(a, "from Grace");
    const res = await env.api("PUT", `/api/pages/${pageId}`, grace, { contentFrom: "room", baseVersion: 1, seenAuthors: [ada.id] });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.contentJson)).toEqual(paragraphs("Notes from Ada from Grace"));
    expect(await names(pageId)).toEqual([]);
    const versions = (await env.api("GET", `/api/pages/${pageId}/versions`, ada)).body;
    expect(versions[0].authorName).toBe("grace");
    expect(versions[0].contributors.map((c: { name: string }) => c.name)).toEqual(["ada", "grace"]);
    // A version published otherwise credits its author alone.
    expect(versions[1].contributors).toEqual([{ id: ada.id, name: "ada" }]);
    expect((await env.api("GET", `/api/pages/${pageId}/versions/2`, ada)).body.contributors.map((c: { name: string }) => c.name)).toEqual([
      "ada",
      "grace",
    ]);
    // Emptied in the stored list too: a restart does not bring the names back.
    a.destroy();
    g.destroy();
    await env.restart();
    expect(await names(pageId)).toEqual([]);
  });

  test("someone's changes the publisher was not shown: 409 unseen_changes naming them, and nothing is published", async () => {
    const pageId = await makePage(env, ada, spaceId, "Draft");
    const [a, g] = [await open(ada, pageId), await open(grace, pageId)];
    typeInto(a, " half-finished");
    await delivered(g, "half-finished");
    const refused = await env.api("PUT", `/api/pages/${pageId}`, grace, { contentFrom: "room", baseVersion: 1, seenAuthors: [] });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("unseen_changes");
    expect(refused.body.detail).toContain("ada");
    expect(refused.body.authors.map((x: { name: string }) => x.name)).toEqual(["ada"]);
    expect((await env.api("GET", `/api/pages/${pageId}`, ada)).body.currentVersionNumber).toBe(1);
    expect(await names(pageId)).toEqual(["ada"]);
    // seenAuthors belongs to publishing from the room.
    const stray = await env.api("PUT", `/api/pages/${pageId}`, grace, { title: "x", seenAuthors: [] });
    expect(stray.status).toBe(400);
    expect(stray.body.field).toBe("seenAuthors");
  });

  test(
    "an update sent as contentJson while the room holds someone's words " + "keeps them listed (they arrive as tracked changes)",
    async () => {
      const pageId = await makePage(env, ada, spaceId, "Shared", "Other");
      const [a, g] = [await open(ada, pageId), await open(grace, pageId)];
      typeInto(a, " words", 1);
      await delivered(g, "Other words");
      expect(
        (
          await env.api("PUT", `/api/pages/${pageId}`, grace, {
            contentJson: JSON.stringify(paragraphs("Changed", "Other")),
            baseVersion: 1,
          })
        ).status,
      ).toBe(200);
      await until(() => a.doc.getMap("cairn").get("version") === 2, 3000, "version 2 in the room");
      expect(await names(pageId)).toEqual(["ada"]);
    },
  );

  test("an update that already holds everything the room has empties the list", async () => {
    const pageId = await makePage(env, ada, spaceId, "Shared");
    const [a, g] = [await open(ada, pageId), await open(grace, pageId)];
    typeInto(a, " words");
    await delivered(g, "Shared words");
    expect(await names(pageId)).toEqual(["ada"]);
    expect(
      (await env.api("PUT", `/api/pages/${pageId}`, grace, { contentJson: JSON.stringify(paragraphs("Shared words")), baseVersion: 1 }))
        .status,
    ).toBe(200);
    await until(() => a.doc.getMap("cairn").get("version") === 2, 3000, "version 2 in the room");
    expect(await names(pageId)).toEqual([]);
  });
});

describe("discard mine", () => {
  test("takes back one person's changes on the server; the other's stay, and so does their name", async () => {
    const pageId = await makePage(env, ada, spaceId, "Base");
    const [a, g] = [await open(ada, pageId), await open(grace, pageId)];
    typeInto(a, " Ada1");
    await delivered(g, "Ada1");
    typeInto(g, " Grace1");
    await delivered(a, "Grace1");
    typeInto(a, " Ada2");
    await delivered(g, "Ada2");
    const res = await env.api("POST", `/api/pages/${pageId}/unpublished/discard`, ada);
    expect(res.status).toBe(200);
    expect(res.body.discarded).toBe(true);
    expect(res.body.authors.map((x: { name: string }) => x.name)).toEqual(["grace"]);
    // Everyone in the room receives it.
    await until(() => g.text() === "Base Grace1" && a.text() === "Base Grace1", 3000, "Ada's words gone everywhere");
    expect(await names(pageId)).toEqual(["grace"]);
    // Grace's own discard leaves the page as published: nothing pending.
    const again = await env.api("POST", `/api/pages/${pageId}/unpublished/discard`, grace);
    expect(again.body.authors).toEqual([]);
    await until(() => a.text() === "Base", 3000, "back to the version");
    // Nothing to take back: discarded false, no change.
    expect((await env.api("POST", `/api/pages/${pageId}/unpublished/discard`, grace)).body.discarded).toBe(false);
  });

  test("refused to readers (403) and without an open room (409 room_not_open)", async () => {
    const pageId = await makePage(env, ada, spaceId, "Closed");
    expect((await env.api("POST", `/api/pages/${pageId}/unpublished/discard`, reader)).status).toBe(403);
    const closed = await env.api("POST", `/api/pages/${pageId}/unpublished/discard`, ada);
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe("room_not_open");
  });
});
