import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, type TestEnv } from "../../tests/harness";
import { doc, ownerMemberAndPage } from "../pages/testing";
import { watch } from "../notifications/testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const setup = () => ownerMemberAndPage(env);

const state = async (who: object, path: string) => {
  const res = await call(env, "GET", `${path}/watch`, { as: who });
  expect(res.status).toBe(200);
  return res.body.watching as boolean;
};
const watchRows = () =>
  (env.core.sqlite.query("SELECT count(*) AS n FROM page_watches").get() as { n: number }).n +
  (env.core.sqlite.query("SELECT count(*) AS n FROM space_watches").get() as { n: number }).n;

describe("space watches", () => {
  test("GET, POST and DELETE answer {watching}; POST and DELETE are idempotent; the key may be any case", async () => {
    const { member } = await setup();
    expect(await state(member, "/api/spaces/DOCS")).toBe(false);
    expect(await watch(env, member, "/api/spaces/DOCS")).toEqual({ watching: true });
    expect(await watch(env, member, "/api/spaces/docs")).toEqual({ watching: true });
    expect(await state(member, "/api/spaces/DOCS")).toBe(true);
    expect(await watch(env, member, "/api/spaces/DOCS", "DELETE")).toEqual({ watching: false });
    expect(await watch(env, member, "/api/spaces/DOCS", "DELETE")).toEqual({ watching: false });
    expect(await state(member, "/api/spaces/DOCS")).toBe(false);
  });

  test("watches are each person's own", async () => {
    const { owner, member } = await setup();
    await watch(env, member, "/api/spaces/DOCS");
    expect(await state(owner, "/api/spaces/DOCS")).toBe(false);
    expect(await state(member, "/api/spaces/DOCS")).toBe(true);
  });

  test("deleting the space removes its watches and its pages' watches (unwatched ones too)", async () => {
    const { owner, member, page } = await setup();
    await watch(env, member, "/api/spaces/DOCS");
    await watch(env, member, `/api/pages/${page.id}`, "DELETE");
    expect(watchRows()).toBe(3);
    const res = await call(env, "DELETE", "/api/spaces/DOCS", {
      as: owner,
      body: { confirmKey: "DOCS", password: "correct horse battery staple" },
    });
    expect(res.status).toBe(204);
    expect(watchRows()).toBe(0);
  });
});

describe("page watches", () => {
  test("the creator watches a new page; others do not until they watch it", async () => {
    const { owner, member, page } = await setup();
    expect(await state(owner, `/api/pages/${page.id}`)).toBe(true);
    expect(await state(member, `/api/pages/${page.id}`)).toBe(false);
    expect(await watch(env, member, `/api/pages/${page.id}`)).toEqual({ watching: true });
    expect(await watch(env, member, `/api/pages/${page.id}`)).toEqual({ watching: true });
    expect(await state(member, `/api/pages/${page.id}`)).toBe(true);
  });

  test("editing a page watches it; unwatching is remembered, so a later edit does not watch it again", async () => {
    const { member, page } = await setup();
    const edit = (text: string) =>
      call(env, "PUT", `/api/pages/${page.id}`, { as: member, body: { title: "Guide", contentJson: doc(text) } });
    expect((await edit("one")).status).toBe(200);
    expect(await state(member, `/api/pages/${page.id}`)).toBe(true);
    expect(await watch(env, member, `/api/pages/${page.id}`, "DELETE")).toEqual({ watching: false });
    expect((await edit("two")).status).toBe(200);
    expect(await state(member, `/api/pages/${page.id}`)).toBe(false);
    expect(await watch(env, member, `/api/pages/${page.id}`)).toEqual({ watching: true });
  });

  test("an emoji or layout change is no edit: it does not watch the page", async () => {
    const { member, page } = await setup();
    expect((await call(env, "PUT", `/api/pages/${page.id}/emoji`, { as: member, body: { emoji: "🎉" } })).status).toBe(200);
    expect(await state(member, `/api/pages/${page.id}`)).toBe(false);
  });

  test("a draft's creator watches it; nobody else can see it to watch it (404)", async () => {
    const { owner, member, space } = await setup();
    const draft = (await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } })).body;
    expect((await call(env, "GET", `/api/pages/${draft.id}/watch`, { as: member })).status).toBe(404);
    expect((await call(env, "POST", `/api/pages/${draft.id}/watch`, { as: member })).status).toBe(404);
    await call(env, "POST", `/api/pages/${draft.id}/publish`, { as: owner, body: { title: "Published" } });
    expect(await state(owner, `/api/pages/${draft.id}`)).toBe(true);
  });

  test("a page in the trash can still be watched and unwatched (it is still readable)", async () => {
    const { member, page, owner } = await setup();
    expect((await call(env, "DELETE", `/api/pages/${page.id}`, { as: owner })).status).toBe(204);
    expect(await watch(env, member, `/api/pages/${page.id}`)).toEqual({ watching: true });
    expect(await watch(env, owner, `/api/pages/${page.id}`, "DELETE")).toEqual({ watching: false });
  });
});

describe("how many watch a page", () => {
  const count = async (who: object, pageId: string) => {
    const res = await call(env, "GET", `/api/pages/${pageId}/watch`, { as: who });
    expect(res.status).toBe(200);
    return res.body.watcherCount as number;
  };

  test("watcherCount counts the accounts watching the page directly; it goes up and down, and space watchers do not count", async () => {
    const { owner, member, page } = await setup();
    expect((await call(env, "GET", `/api/pages/${page.id}/watch`, { as: member })).body).toEqual({ watching: false, watcherCount: 1 });
    await watch(env, member, `/api/pages/${page.id}`);
    expect(await count(owner, page.id)).toBe(2);
    await watch(env, member, `/api/pages/${page.id}`); // idempotent: still two
    expect(await count(member, page.id)).toBe(2);
    await watch(env, owner, `/api/pages/${page.id}`, "DELETE");
    expect(await count(member, page.id)).toBe(1);
    await watch(env, member, "/api/spaces/DOCS");
    await watch(env, member, `/api/pages/${page.id}`, "DELETE");
    expect(await count(owner, page.id)).toBe(0);
  });

  test("the count is answered only to those who may read the page (404 otherwise, 401 anonymously)", async () => {
    const { owner, member, space } = await setup();
    const draft = (await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } })).body;
    expect(await count(owner, draft.id)).toBe(0); // a new draft is watched once it is saved or published
    const res = await call(env, "GET", `/api/pages/${draft.id}/watch`, { as: member });
    expect(res.status).toBe(404);
    expect(res.body.watcherCount).toBeUndefined();
    expect((await call(env, "GET", `/api/pages/${draft.id}/watch`)).status).toBe(401);
  });
});

describe("who may watch", () => {
  test.each([
    ["page id", "/api/pages/0190a6c8-0000-7000-8000-00000000dead"],
    ["space key", "/api/spaces/NOPE"],
    ["malformed space key", "/api/spaces/no%20such"],
  ])("an unknown %s is 404 on GET, POST and DELETE, and nothing is written", async (_what, path) => {
    const { member } = await setup();
    for (const method of ["GET", "POST", "DELETE"]) expect((await call(env, method, `${path}/watch`, { as: member })).status).toBe(404);
    expect(watchRows()).toBe(1); // the owner's automatic watch of Guide
  });

  test("anonymous callers get 401", async () => {
    const { page } = await setup();
    for (const path of [`/api/pages/${page.id}`, "/api/spaces/DOCS"]) {
      for (const method of ["GET", "POST", "DELETE"]) expect((await call(env, method, `${path}/watch`)).status).toBe(401);
    }
  });

  test("a read-only token may read the state but not change it (403 read_only_token); a full token may", async () => {
    const { member, page } = await setup();
    const ro = await mintToken(env, member, { name: "ro", readOnly: true });
    const full = await mintToken(env, member, { name: "full" });
    for (const path of [`/api/pages/${page.id}`, "/api/spaces/DOCS"]) {
      expect((await call(env, "GET", `${path}/watch`, { as: { token: ro } })).body.watching).toBe(false);
      for (const method of ["POST", "DELETE"]) {
        const res = await call(env, method, `${path}/watch`, { as: { token: ro } });
        expect(res.status).toBe(403);
        expect(res.body.code).toBe("read_only_token");
      }
      expect((await call(env, "POST", `${path}/watch`, { as: { token: full } })).body).toEqual({ watching: true });
    }
    expect(watchRows()).toBe(3);
  });

  test("a session request that changes a watch needs X-Requested-With", async () => {
    const { member } = await setup();
    expect((await call(env, "POST", "/api/spaces/DOCS/watch", { as: member, noCsrfHeader: true })).status).toBe(403);
    expect(watchRows()).toBe(1);
  });
});
