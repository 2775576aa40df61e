import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv } from "../../tests/harness";
import { doc, eventsOf, newPage, newSpace } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

async function pageWithHistory() {
  const { owner, member } = await ownerAndMember(env);
  const space = await newSpace(env, owner, "DOCS");
  const page = await newPage(env, owner, space.id, "First", { contentJson: doc("one") });
  env.clock.advance(1000);
  await call(env, "PUT", `/api/pages/${page.id}`, {
    as: member,
    body: { title: "Second", contentJson: doc("two"), changeComment: "More", baseVersion: 1 },
  });
  env.clock.advance(1000);
  await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { title: "Third", baseVersion: 2 } });
  return { owner, member, space, page };
}

describe("page versions", () => {
  test("are listed newest first with author, comment and time, without documents", async () => {
    const { owner, member, page } = await pageWithHistory();
    const res = await call(env, "GET", `/api/pages/${page.id}/versions`, { as: owner });
    expect(res.status).toBe(200);
    expect(res.body.map((v: any) => [v.versionNumber, v.title, v.changeComment, v.authorId, v.authorName])).toEqual([
      [3, "Third", null, owner.id, "owner"],
      [2, "Second", "More", member.id, "member"],
      [1, "First", null, owner.id, "owner"],
    ]);
    expect(res.body[0].contentJson).toBeUndefined();
    expect(Date.parse(res.body[0].createdAt)).toBeGreaterThan(Date.parse(res.body[2].createdAt));
  });

  test("one is read with its document; a missing number is 404, a non-number 400", async () => {
    const { owner, page } = await pageWithHistory();
    const v2 = await call(env, "GET", `/api/pages/${page.id}/versions/2`, { as: owner });
    expect(v2.body).toMatchObject({ versionNumber: 2, title: "Second", contentJson: doc("two"), changeComment: "More" });
    expect((await call(env, "GET", `/api/pages/${page.id}/versions/9`, { as: owner })).status).toBe(404);
    expect((await call(env, "GET", `/api/pages/${page.id}/versions/two`, { as: owner })).status).toBe(400);
  });

  test("restore adds a new version 'Restored from version N' with the old title and document", async () => {
    const { owner, page } = await pageWithHistory();
    const res = await call(env, "POST", `/api/pages/${page.id}/versions/1/restore`, { as: owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: "First", contentJson: doc("one"), currentVersionNumber: 4 });
    const list = await call(env, "GET", `/api/pages/${page.id}/versions`, { as: owner });
    expect(list.body[0]).toMatchObject({ versionNumber: 4, title: "First", changeComment: "Restored from version 1" });
    expect(list.body).toHaveLength(4);
    expect(eventsOf(env, "page.updated").at(-1)!.data).toMatchObject({ restoredFrom: 1, versionNumber: 4 });
  });

  test("restoring a missing version is 404 and adds nothing", async () => {
    const { owner, page } = await pageWithHistory();
    expect((await call(env, "POST", `/api/pages/${page.id}/versions/7/restore`, { as: owner })).status).toBe(404);
    expect((await call(env, "GET", `/api/pages/${page.id}`, { as: owner })).body.currentVersionNumber).toBe(3);
  });

  test("anonymous callers get 404 for the history of a page, like a missing one", async () => {
    const { page } = await pageWithHistory();
    const hidden = await call(env, "GET", `/api/pages/${page.id}/versions`);
    expect(hidden.status).toBe(404);
    expect(hidden.text).toBe((await call(env, "GET", `/api/pages/0190-missing/versions`)).text);
    expect((await call(env, "POST", `/api/pages/${page.id}/versions/1/restore`)).status).toBe(401);
  });
});
