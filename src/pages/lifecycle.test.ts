/** A page's whole life over HTTP, as a script or the UI would drive it, in one story. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv } from "../../tests/harness";
import { doc, eventsOf, newSpace, titles, treeOf } from "./testing";

let env: TestEnv;
beforeAll(() => (env = makeEnv()));
afterAll(() => env.close());

test("create, edit, conflict, history, move, copy, trash, restore, purge", async () => {
  const { owner, member } = await ownerAndMember(env);
  const docs = await newSpace(env, owner, "DOCS", "Documentation");
  const team = await newSpace(env, owner, "TEAM", "Team");

  // Create a guide with a child.
  const guide = (
    await call(env, "POST", "/api/pages", { as: owner, body: { spaceId: docs.id, title: "Guide", contentJson: doc("Start here") } })
  ).body;
  const setup = (await call(env, "POST", "/api/pages", { as: owner, body: { spaceId: docs.id, parentPageId: guide.id, title: "Setup" } }))
    .body;
  expect(guide.currentVersionNumber).toBe(1);

  // Two people edit from version 1: the second one gets the current page back and retries from it.
  const first = await call(env, "PUT", `/api/pages/${guide.id}`, {
    as: owner,
    body: { contentJson: doc("Start here, please"), baseVersion: 1, changeComment: "Polite" },
  });
  expect(first.body.currentVersionNumber).toBe(2);
  const conflict = await call(env, "PUT", `/api/pages/${guide.id}`, { as: member, body: { contentJson: doc("Begin"), baseVersion: 1 } });
  expect(conflict).toMatchObject({
    status: 409,
    body: { code: "version_conflict", currentVersionNumber: 2, contentJson: doc("Start here, please") },
  });
  const retry = await call(env, "PUT", `/api/pages/${guide.id}`, {
    as: member,
    body: { contentJson: doc("Begin here, please"), baseVersion: conflict.body.currentVersionNumber },
  });
  expect(retry.body.currentVersionNumber).toBe(3);

  // History: three versions, and version 2 restored as version 4.
  const history = (await call(env, "GET", `/api/pages/${guide.id}/versions`, { as: owner })).body;
  expect(history.map((v: any) => [v.versionNumber, v.authorName])).toEqual([
    [3, "member"],
    [2, "owner"],
    [1, "owner"],
  ]);
  const restored = await call(env, "POST", `/api/pages/${guide.id}/versions/2/restore`, { as: owner });
  expect(restored.body).toMatchObject({ currentVersionNumber: 4, contentJson: doc("Start here, please") });

  // Move the guide (with Setup) to TEAM, then copy it back to DOCS with its children.
  await call(env, "PUT", `/api/pages/${guide.id}/move`, { as: owner, body: { spaceId: team.id } });
  expect(titles(await treeOf(env, owner, team.id))).toEqual(["Guide", ["Setup"]]);
  expect(await treeOf(env, owner, docs.id)).toEqual([]);
  const copy = (await call(env, "POST", `/api/pages/${guide.id}/copy`, { as: owner, body: { spaceId: docs.id, includeChildren: true } }))
    .body;
  expect(copy).toMatchObject({ title: "Guide", spaceId: docs.id, currentVersionNumber: 1 });
  expect(titles(await treeOf(env, owner, docs.id))).toEqual(["Guide", ["Setup"]]);

  // Trash the original, restore it, trash it again and purge it.
  expect((await call(env, "DELETE", `/api/pages/${guide.id}`, { as: owner })).status).toBe(204);
  expect((await call(env, "GET", `/api/pages/trash?spaceId=${team.id}`, { as: owner })).body.map((e: any) => e.id)).toEqual([guide.id]);
  expect((await call(env, "POST", `/api/pages/${guide.id}/restore`, { as: owner })).body.deletedAt).toBeNull();
  expect(titles(await treeOf(env, owner, team.id))).toEqual(["Guide", ["Setup"]]);
  await call(env, "DELETE", `/api/pages/${guide.id}`, { as: owner });
  expect((await call(env, "DELETE", `/api/pages/${guide.id}/purge`, { as: owner })).status).toBe(204);
  expect((await call(env, "GET", `/api/pages/${setup.id}`, { as: owner })).status).toBe(404);
  expect((await call(env, "GET", `/api/pages/${copy.id}`, { as: owner })).status).toBe(200);

  // Every step left its event, in order.
  const mine = eventsOf(env)
    .filter((e) => e.targetId === guide.id)
    .map((e) => e.type);
  expect(mine).toEqual([
    "page.created",
    "page.updated",
    "page.updated",
    "page.updated",
    "page.moved",
    "page.trashed",
    "page.restored",
    "page.trashed",
    "page.purged",
  ]);
});
