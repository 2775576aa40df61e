import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { pageHref } from "../content/page-links";
import { newPage, newSpace } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

/** A document linking to these pages: a pageLink node each, and linked text to the last one. */
function linking(...ids: string[]): string {
  const nodes = ids.map((pageId) => ({ type: "pageLink", attrs: { pageId } }));
  const last = ids.at(-1);
  const text = last ? [{ type: "text", text: " see also", marks: [{ type: "link", attrs: { href: pageHref(last, "#intro") } }] }] : [];
  return JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Links: " }, ...nodes, ...text] }] });
}

const backlinks = async (who: Who, id: string) => {
  const res = await call(env, "GET", `/api/pages/${id}/backlinks`, { as: who });
  expect(res.status).toBe(200);
  return (res.body as Array<{ title: string }>).map((p) => p.title);
};

const restrictToOwner = async (owner: Who & { id: string }, pageId: string) =>
  expect(
    (
      await call(env, "POST", `/api/pages/${pageId}/restrictions`, {
        as: owner,
        body: { principalType: 0, principalId: owner.id, operation: 0 },
      })
    ).status,
  ).toBe(201);

describe("backlinks", () => {
  test("follow every version write: create, update, restore, publish of a draft; a page's links to itself are not listed", async () => {
    const { owner } = await ownerAndMember(env);
    const space = await newSpace(env, owner, "DOCS");
    const target = await newPage(env, owner, space.id, "Target");
    const other = await newPage(env, owner, space.id, "Other");
    const a = await newPage(env, owner, space.id, "Alpha", { contentJson: linking(target.id) });
    expect(await backlinks(owner, target.id)).toEqual(["Alpha"]);
    // Linked text alone counts too; the old pageLink is gone from the new version.
    const onlyText = JSON.stringify({
      type: "doc",
      content: [
        {
          type: "paragraph",
          content: [{ type: "text", text: "x", marks: [{ type: "link", attrs: { href: `/s/DOCS/p/${other.id}-other` } }] }],
        },
      ],
    });
    expect((await call(env, "PUT", `/api/pages/${a.id}`, { as: owner, body: { contentJson: onlyText } })).status).toBe(200);
    expect(await backlinks(owner, target.id)).toEqual([]);
    expect(await backlinks(owner, other.id)).toEqual(["Alpha"]);
    // Restoring version 1 brings its links back.
    expect((await call(env, "POST", `/api/pages/${a.id}/versions/1/restore`, { as: owner })).status).toBe(200);
    expect(await backlinks(owner, target.id)).toEqual(["Alpha"]);
    expect(await backlinks(owner, other.id)).toEqual([]);
    // A draft lists nothing until it is published.
    const draft = await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } });
    expect((await call(env, "PUT", `/api/pages/${draft.body.id}`, { as: owner, body: { contentJson: linking(target.id) } })).status).toBe(
      200,
    );
    expect(await backlinks(owner, target.id)).toEqual(["Alpha"]);
    expect(
      (
        await call(env, "POST", `/api/pages/${draft.body.id}/publish`, {
          as: owner,
          body: { title: "Beta", contentJson: linking(target.id, draft.body.id) },
        })
      ).status,
    ).toBe(200);
    expect(await backlinks(owner, target.id)).toEqual(["Alpha", "Beta"]);
    expect(await backlinks(owner, draft.body.id)).toEqual([]);
    // The trash hides a linking page; purging it removes its rows.
    expect((await call(env, "DELETE", `/api/pages/${a.id}`, { as: owner })).status).toBe(204);
    expect(await backlinks(owner, target.id)).toEqual(["Beta"]);
  });

  test("renaming and moving (even to another space) keep every link: by id, with the new title", async () => {
    const { owner } = await ownerAndMember(env);
    const docs = await newSpace(env, owner, "DOCS");
    const ops = await newSpace(env, owner, "OPS");
    const target = await newPage(env, owner, docs.id, "Install");
    const from = await newPage(env, owner, docs.id, "Guide", { contentJson: linking(target.id) });
    expect((await call(env, "PUT", `/api/pages/${target.id}`, { as: owner, body: { title: "Installing Cairn" } })).status).toBe(200);
    expect(
      (await call(env, "PUT", `/api/pages/${target.id}/move`, { as: owner, body: { spaceId: ops.id, parentPageId: null } })).status,
    ).toBe(200);
    expect(await backlinks(owner, target.id)).toEqual(["Guide"]);
    const titles = await call(env, "GET", `/api/pages/titles?ids=${target.id}`, { as: owner });
    expect(titles.body).toEqual([
      { id: target.id, title: "Installing Cairn", emoji: null, spaceId: ops.id, spaceKey: "OPS", spaceName: expect.any(String) },
    ]);
    // The linking page's document still names the page by id alone.
    const page = await call(env, "GET", `/api/pages/${from.id}`, { as: owner });
    expect(page.body.contentJson).toContain(`"pageId":"${target.id}"`);
    expect(page.body.contentJson).not.toContain("Install");
  });

  test("list only pages the caller may read; a target they may not read is a 404, like a missing one", async () => {
    const { owner, member } = await ownerAndMember(env);
    const space = await newSpace(env, owner, "DOCS");
    const target = await newPage(env, owner, space.id, "Target");
    await newPage(env, owner, space.id, "Open", { contentJson: linking(target.id) });
    const secret = await newPage(env, owner, space.id, "Secret plans", { contentJson: linking(target.id) });
    await restrictToOwner(owner, secret.id);
    expect(await backlinks(owner, target.id)).toEqual(["Open", "Secret plans"]);
    expect(await backlinks(member, target.id)).toEqual(["Open"]);
    await restrictToOwner(owner, target.id);
    expect((await call(env, "GET", `/api/pages/${target.id}/backlinks`, { as: member })).status).toBe(404);
    expect((await call(env, "GET", "/api/pages/0190a6c8-0000-7000-8000-00000000dead/backlinks", { as: owner })).status).toBe(404);
  });
});

describe("GET /api/pages/titles", () => {
  test("answers each page the caller may read on its own; the others are left out, titles and all", async () => {
    const { owner, member } = await ownerAndMember(env);
    const space = await newSpace(env, owner, "DOCS");
    const open = await newPage(env, owner, space.id, "Open");
    const secret = await newPage(env, owner, space.id, "Secret plans");
    const trashed = await newPage(env, owner, space.id, "Old");
    await restrictToOwner(owner, secret.id);
    expect((await call(env, "DELETE", `/api/pages/${trashed.id}`, { as: owner })).status).toBe(204);
    const ids = [open.id, secret.id, trashed.id, "0190a6c8-0000-7000-8000-00000000dead"].join(",");
    const seen = async (who: Who) =>
      ((await call(env, "GET", `/api/pages/titles?ids=${ids}`, { as: who })).body as Array<{ title: string }>).map((p) => p.title).sort();
    expect(await seen(owner)).toEqual(["Open", "Secret plans"]);
    expect(await seen(member)).toEqual(["Open"]);
    const res = await call(env, "GET", `/api/pages/titles?ids=${ids}`, { as: member });
    expect(JSON.stringify(res.body)).not.toContain("Secret");
  });

  test.each([
    ["none", "ids=", "at least one"],
    ["not an id", "ids=nope", "not a page id"],
    [
      "201 ids",
      `ids=${Array.from({ length: 201 }, (_, i) => `0190a6c8-0000-7000-8000-${String(i).padStart(12, "0")}`).join(",")}`,
      "at most 200",
    ],
  ])("%s is a 400 on ids", async (_name, query, words) => {
    const { owner } = await ownerAndMember(env);
    const res = await call(env, "GET", `/api/pages/titles?${query}`, { as: owner });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("ids");
    expect(JSON.stringify(res.body)).toContain(words);
  });
});
