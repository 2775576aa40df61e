import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv } from "../../tests/harness";
import { EMPTY_DOCUMENT_JSON } from "../content/schema";
import { doc, eventsOf, newPage, newSpace, titles, treeOf } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

async function setup() {
  const { owner, member } = await ownerAndMember(env);
  const space = await newSpace(env, owner, "DOCS");
  const parent = await newPage(env, owner, space.id, "Parent");
  const draft = await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id, parentPageId: parent.id } });
  return { owner, member, space, parent, draft };
}

describe("drafts", () => {
  test("POST /api/pages/draft creates an untitled, empty draft and tells nobody", async () => {
    const { owner, space, parent, draft } = await setup();
    expect(draft.status).toBe(201);
    expect(draft.body).toMatchObject({
      status: 0,
      title: "",
      contentJson: EMPTY_DOCUMENT_JSON,
      parentPageId: parent.id,
      spaceId: space.id,
      currentVersionNumber: 1,
      canEdit: true,
    });
    expect(eventsOf(env, "page.created").map((e) => e.targetId)).toEqual([parent.id]);
    expect(titles(await treeOf(env, owner, space.id))).toEqual(["Parent"]);
  });

  test("is visible only to its creator: everyone else gets 404, as for a missing page", async () => {
    const { owner, member, draft } = await setup();
    expect((await call(env, "GET", `/api/pages/${draft.body.id}`, { as: owner })).status).toBe(200);
    const hidden = await call(env, "GET", `/api/pages/${draft.body.id}`, { as: member });
    expect(hidden.status).toBe(404);
    expect(hidden.text).toBe((await call(env, "GET", "/api/pages/0190-missing", { as: member })).text);
    for (const [method, path, body] of [
      ["PUT", "", { title: "Mine now" }],
      ["POST", "/publish", { title: "Mine now" }],
      ["DELETE", "/draft", undefined],
      ["GET", "/versions", undefined],
    ] as const) {
      expect((await call(env, method, `/api/pages/${draft.body.id}${path}`, { as: member, body })).status).toBe(404);
    }
  });

  test("autosaves (PUT) without events; an untitled draft may stay untitled", async () => {
    const { owner, draft } = await setup();
    const res = await call(env, "PUT", `/api/pages/${draft.body.id}`, { as: owner, body: { title: "", contentJson: doc("wip") } });
    expect(res.body).toMatchObject({ currentVersionNumber: 2, contentJson: doc("wip"), status: 0 });
    expect(eventsOf(env, "page.updated")).toHaveLength(0);
  });

  test("publish makes it a published page at the end of its siblings and fires page.created once", async () => {
    const { owner, space, parent, draft } = await setup();
    await newPage(env, owner, space.id, "Sibling", { parentPageId: parent.id });
    const res = await call(env, "POST", `/api/pages/${draft.body.id}/publish`, {
      as: owner,
      body: { title: "Launch", contentJson: doc("Go") },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 1,
      title: "Launch",
      contentJson: doc("Go"),
      parentPageId: parent.id,
      position: 1,
      currentVersionNumber: 2,
    });
    expect(titles(await treeOf(env, owner, space.id))).toEqual(["Parent", ["Sibling", "Launch"]]);
    const again = await call(env, "POST", `/api/pages/${draft.body.id}/publish`, { as: owner, body: { title: "Again" } });
    expect(again.status).toBe(409);
    expect(eventsOf(env, "page.created").filter((e) => e.targetId === draft.body.id)).toHaveLength(1);
    const versions = await call(env, "GET", `/api/pages/${draft.body.id}/versions`, { as: owner });
    expect(versions.body[0].changeComment).toBe("Published");
  });

  test("publish without contentJson keeps the draft's document; a blank title is 400", async () => {
    const { owner, draft } = await setup();
    await call(env, "PUT", `/api/pages/${draft.body.id}`, { as: owner, body: { contentJson: doc("kept") } });
    expect((await call(env, "POST", `/api/pages/${draft.body.id}/publish`, { as: owner, body: { title: "  " } })).body.field).toBe("title");
    const res = await call(env, "POST", `/api/pages/${draft.body.id}/publish`, { as: owner, body: { title: "Done" } });
    expect(res.body.contentJson).toBe(doc("kept"));
  });

  test("publish lands at the top level when the parent went to the trash meanwhile", async () => {
    const { owner, space, parent, draft } = await setup();
    await call(env, "DELETE", `/api/pages/${parent.id}`, { as: owner });
    // The draft went to the trash with its parent: bring it back alone first.
    await call(env, "POST", `/api/pages/${draft.body.id}/restore`, { as: owner });
    const res = await call(env, "POST", `/api/pages/${draft.body.id}/publish`, { as: owner, body: { title: "Orphan" } });
    expect(res.body).toMatchObject({ parentPageId: null, status: 1 });
    expect(titles(await treeOf(env, owner, space.id))).toEqual(["Orphan"]);
  });

  test("DELETE /draft removes a draft and its history for good; a published page is 409", async () => {
    const { owner, parent, draft } = await setup();
    expect((await call(env, "DELETE", `/api/pages/${draft.body.id}/draft`, { as: owner })).status).toBe(204);
    expect((await call(env, "GET", `/api/pages/${draft.body.id}`, { as: owner })).status).toBe(404);
    expect(env.core.sqlite.query("SELECT count(*) AS n FROM page_versions WHERE page_id = ?").get(draft.body.id)).toEqual({ n: 0 });
    expect((await call(env, "DELETE", `/api/pages/${parent.id}/draft`, { as: owner })).status).toBe(409);
  });

  test("a draft cannot be created under another draft, nor in an archived space", async () => {
    const { owner, space, draft } = await setup();
    const nested = await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id, parentPageId: draft.body.id } });
    expect(nested).toMatchObject({ status: 400, body: { field: "parentPageId" } });
    await call(env, "POST", "/api/spaces/DOCS/archive", { as: owner });
    expect((await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } })).status).toBe(403);
  });
});
