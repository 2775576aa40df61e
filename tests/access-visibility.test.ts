/**
 * What the matrix's statuses cannot show: lists never give away a hidden page's title or id, and
 * every id in a request (target space, target parent) is authorised on its own.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildWorld, freshMaker, type World } from "./access-fixtures";
import { call, makeEnv, type TestEnv, type Who } from "./harness";

let env: TestEnv;
let w: World;
let fresh: ReturnType<typeof freshMaker>;
let trashedUnderHidden: string;
beforeAll(async () => {
  env = makeEnv();
  w = await buildWorld(env);
  fresh = freshMaker(env, w);
  // A page trashed on its own under HIDDEN: its trash entry must stay as hidden as it was.
  trashedUnderHidden = await fresh.trashed(w.hidden);
});
afterAll(() => env.close());

const get = async (who: Who, path: string) => {
  const res = await call(env, "GET", path, { as: who });
  expect(res.status).toBe(200);
  return res.text;
};

/** Every list a caller can ask for, as text. */
async function lists(who: Who): Promise<string> {
  const parts = await Promise.all([
    get(who, `/api/pages/tree?spaceId=${w.main.id}`),
    get(who, "/api/search?q=Zanzibar"),
    get(who, "/api/search?q=Xylophone"),
    get(who, `/api/search?q=hidden&spaceId=${w.main.id}`),
    get(who, "/api/search?q=Zanz"),
    get(who, "/api/labels"),
    get(who, "/api/labels/secretlabel/pages"),
    get(who, `/api/pages/trash?spaceId=${w.main.id}`),
    get(who, "/api/pages/trash"),
    get(who, `/api/pages/${w.page}/restrictions`),
  ]);
  return parts.join("\n");
}

describe("lists never reveal a hidden page", () => {
  test.each(["shutOut", "everyone", "instanceAdmin", "owner"] as const)("to %s: no title, no id, no label of it", async (name) => {
    const text = await lists(w.who[name]);
    for (const secret of ["Zanzibar", "Xylophone", "secretlabel", w.hidden, w.hiddenChild, trashedUnderHidden])
      expect(text).not.toContain(secret);
    expect(text).toContain("Plain page");
  });

  test.each(["editor", "viewer", "groupMember", "spaceAdmin"] as const)(
    "while %s, named (or a space admin), sees it in the same lists",
    async (name) => {
      const text = await lists(w.who[name]);
      for (const shown of ["Zanzibar", "Xylophone", "secretlabel", w.hidden, w.hiddenChild]) expect(text).toContain(shown);
    },
  );

  test("the space list shows only the spaces the caller may view", async () => {
    const keys = async (who: Who) => JSON.parse(await get(who, "/api/spaces")).map((s: any) => s.key);
    expect(await keys(w.who.viewer)).toEqual(["MAIN"]);
    expect(await keys(w.who.editor)).toEqual(["MAIN", "OTHER", "PRIV"]);
    expect(await keys(w.who.owner)).toEqual(["MAIN"]);
    expect(await keys({})).toEqual([]);
  });

  test("another person's draft is in nobody else's lists", async () => {
    const draft = await fresh.draft(w.who.editor);
    await call(env, "PUT", `/api/pages/${draft}`, { as: w.who.editor, body: { title: "Wombat draft" } });
    await call(env, "DELETE", `/api/pages/${draft}`, { as: w.who.editor });
    expect(await get(w.who.spaceAdmin, "/api/pages/trash")).not.toContain(draft);
    expect(await get(w.who.editor, "/api/pages/trash")).toContain(draft);
  });
});

describe("every id is authorised on its own", () => {
  const copy = (who: Who, id: string, body: Record<string, unknown>) => call(env, "POST", `/api/pages/${id}/copy`, { as: who, body });
  const move = (who: Who, id: string, body: Record<string, unknown>) => call(env, "PUT", `/api/pages/${id}/move`, { as: who, body });

  test("copy or move into a space the caller cannot see is 404, into one they cannot edit 403", async () => {
    expect((await copy(w.who.groupMember, w.page, { spaceId: w.priv.id })).status).toBe(404);
    expect((await copy(w.who.editor, w.page, { spaceId: w.priv.id })).status).toBe(201);
    expect((await move(w.who.shutOut, await fresh.page(), { spaceId: w.priv.id })).status).toBe(404);
    expect((await move(w.who.editor, await fresh.page(), { spaceId: w.priv.id })).status).toBe(200);
    // The viewer sees MAIN but may not edit it: copying PRIV's… they cannot see PRIV's page at all.
    expect((await copy(w.who.viewer, w.privPage, { spaceId: w.main.id })).status).toBe(404);
    expect((await copy(w.who.viewer, w.page, { spaceId: w.main.id })).status).toBe(403);
  });

  test("a parent in another space is 400 on parentPageId, one the caller cannot see 404", async () => {
    const create = (who: Who, parentPageId: string) =>
      call(env, "POST", "/api/pages", { as: who, body: { spaceId: w.main.id, parentPageId, title: "x" } });
    expect(await create(w.who.editor, w.otherSpace.page)).toMatchObject({ status: 400, body: { field: "parentPageId" } });
    expect((await create(w.who.groupMember, w.otherSpace.page)).status).toBe(404);
    expect(await move(w.who.editor, await fresh.page(), { parentPageId: w.otherSpace.page })).toMatchObject({
      status: 400,
      body: { field: "parentPageId" },
    });
    expect((await copy(w.who.groupMember, w.page, { parentPageId: w.privPage })).status).toBe(404);
  });

  test("a restricted parent: hidden is 404, edit-restricted 403, for create, move and copy alike", async () => {
    const create = (who: Who, parentPageId: string) =>
      call(env, "POST", "/api/pages", { as: who, body: { spaceId: w.main.id, parentPageId, title: "x" } });
    expect((await create(w.who.shutOut, w.hidden)).status).toBe(404);
    expect((await create(w.who.limited, w.guarded)).status).toBe(403);
    expect((await move(w.who.shutOut, await fresh.page(), { parentPageId: w.hiddenChild })).status).toBe(404);
    expect((await move(w.who.limited, await fresh.page(), { parentPageId: w.guardedChild })).status).toBe(403);
    expect((await copy(w.who.shutOut, w.page, { parentPageId: w.hidden })).status).toBe(404);
    expect((await copy(w.who.limited, w.page, { parentPageId: w.guarded })).status).toBe(403);
    expect((await copy(w.who.editor, w.page, { parentPageId: w.guarded })).status).toBe(201);
  });

  test("copying a subtree leaves behind what the caller cannot see", async () => {
    const top = await fresh.page();
    await call(env, "PUT", `/api/pages/${w.hidden}/move`, { as: w.who.spaceAdmin, body: { parentPageId: top } });
    try {
      const copied = await copy(w.who.shutOut, top, { includeChildren: true, parentPageId: null });
      expect(copied.status).toBe(201);
      const tree = JSON.parse(await get(w.who.spaceAdmin, `/api/pages/tree?spaceId=${w.main.id}`));
      expect(tree.find((n: any) => n.id === copied.body.id).children).toEqual([]);
      const byEditor = await copy(w.who.editor, top, { includeChildren: true, parentPageId: null });
      const again = JSON.parse(await get(w.who.spaceAdmin, `/api/pages/tree?spaceId=${w.main.id}`));
      expect(again.find((n: any) => n.id === byEditor.body.id).children.map((c: any) => c.title)).toEqual(["Zanzibar hidden"]);
    } finally {
      await call(env, "PUT", `/api/pages/${w.hidden}/move`, { as: w.who.spaceAdmin, body: { parentPageId: null } });
    }
  });
});
