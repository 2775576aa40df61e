import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, cookieFrom, makeEnv, mintToken, ownerAndMember, PASSWORD, type TestEnv } from "../../tests/harness";
import { auditOf } from "../audit/testing";
import { uploaded } from "../attachments/testing";
import { comment } from "../comments/testing";
import { doc, eventsOf, newPage, newSpace, titles, treeOf } from "../pages/testing";
import { setSetting } from "../settings/service";

let env: TestEnv;
beforeEach(() => {
  env = makeEnv();
});
afterEach(() => env.close());

/** PUBLIC (public, with a hidden and an edit-restricted part) and PRIVATE, both the owner's. */
async function setup(opts: { publicComments?: boolean } = {}) {
  const { owner, member } = await ownerAndMember(env);
  const pub = await newSpace(env, owner, "PUBLIC");
  const priv = await newSpace(env, owner, "PRIVATE");
  const intro = await newPage(env, owner, pub.id, "Intro", { contentJson: doc("welcome aboard") });
  const secret = await newPage(env, owner, pub.id, "Secret", { contentJson: doc("welcome insiders") });
  const below = await newPage(env, owner, pub.id, "Below", { parentPageId: secret.id, contentJson: doc("welcome deeper") });
  const guarded = await newPage(env, owner, pub.id, "Guarded", { contentJson: doc("welcome readers") });
  const inside = await newPage(env, owner, priv.id, "Inside", { contentJson: doc("welcome staff") });
  const draft = (await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: pub.id } })).body;
  await call(env, "POST", `/api/pages/${secret.id}/restrictions`, {
    as: owner,
    body: { principalType: 0, principalId: owner.id, operation: 0 },
  });
  await call(env, "POST", `/api/pages/${guarded.id}/restrictions`, {
    as: owner,
    body: { principalType: 0, principalId: owner.id, operation: 1 },
  });
  await call(env, "POST", `/api/pages/${intro.id}/labels`, { as: owner, body: { name: "howto" } });
  const file = await uploaded(env, owner, intro.id, "hello", "hello.txt", "text/plain");
  await comment(env, owner, intro.id, { body: "first!" });
  const made = await call(env, "PUT", "/api/admin/spaces/PUBLIC/public", {
    as: owner,
    body: { isPublic: true, publicComments: opts.publicComments ?? false },
  });
  expect(made.status).toBe(200);
  return { owner, member, pub, priv, intro, secret, below, guarded, inside, draft, file };
}

const anon = (path: string, headers?: Record<string, string>) => call(env, "GET", path, { headers });

describe("anonymous readers", () => {
  test("see nothing while allowPublicSpaces is off: 404 like a missing thing, empty lists", async () => {
    const { pub, intro } = await setup();
    expect((await anon("/api/spaces")).body).toEqual([]);
    expect((await anon("/api/spaces/PUBLIC")).text).toBe((await anon("/api/spaces/NOPE")).text);
    expect((await anon(`/api/pages/${intro.id}`)).status).toBe(404);
    expect((await anon(`/api/pages/tree?spaceId=${pub.id}`)).status).toBe(404);
    expect((await anon("/api/search?q=welcome")).body).toEqual([]);
  });

  test("read a public space while the setting is on: its tree, published unrestricted pages, attachments, labels, search", async () => {
    const { pub, intro, secret, below, guarded, inside, draft, file } = await setup();
    setSetting(env.core, "allowPublicSpaces", true);
    expect((await anon("/api/spaces")).body.map((s: any) => s.key)).toEqual(["PUBLIC"]);
    expect((await anon("/api/spaces/PUBLIC")).body).toMatchObject({ key: "PUBLIC", isPublic: true });
    expect((await anon("/api/spaces/PRIVATE")).status).toBe(404);
    expect(titles(await treeOf(env, {}, pub.id))).toEqual(["Intro", "Guarded"]);
    expect((await anon(`/api/pages/${intro.id}`)).body).toMatchObject({ title: "Intro", canEdit: false });
    expect((await anon(`/api/pages/${guarded.id}`)).status).toBe(200);
    for (const hidden of [secret.id, below.id, inside.id, draft.id]) expect((await anon(`/api/pages/${hidden}`)).status).toBe(404);
    expect((await anon(`/api/pages/${intro.id}/attachments`)).body.map((a: any) => a.id)).toEqual([file.id]);
    expect((await anon(`/api/attachments/${file.id}/download`)).text).toBe("hello");
    expect((await anon(`/api/pages/${intro.id}/labels`)).body.map((l: any) => l.name)).toEqual(["howto"]);
    const hits = (await anon("/api/search?q=welcome")).body.map((h: any) => h.title).sort();
    expect(hits).toEqual(["Guarded", "Intro"]);
    expect((await anon(`/api/search?q=welcome&spaceId=${pub.id}`)).body).toHaveLength(2);
    // History, restrictions and the trash need an account.
    expect((await anon(`/api/pages/${intro.id}/versions`)).status).toBe(401);
    expect((await anon(`/api/pages/${intro.id}/restrictions`)).status).toBe(401);
    expect((await anon(`/api/pages/trash?spaceId=${pub.id}`)).body).toEqual([]);
  });

  test("never write: 401 on every change, even in a public space", async () => {
    const { pub, intro } = await setup();
    setSetting(env.core, "allowPublicSpaces", true);
    expect((await call(env, "POST", "/api/pages", { body: { spaceId: pub.id, title: "x" } })).status).toBe(401);
    expect((await call(env, "PUT", `/api/pages/${intro.id}`, { body: { title: "x" } })).status).toBe(401);
    expect((await call(env, "POST", `/api/pages/${intro.id}/comments`, { body: { body: "x" } })).status).toBe(401);
  });

  test("read comments only where publicComments is on", async () => {
    const { intro } = await setup();
    setSetting(env.core, "allowPublicSpaces", true);
    expect((await anon(`/api/pages/${intro.id}/comments`)).status).toBe(404);
    await call(env, "PUT", "/api/admin/spaces/PUBLIC/public", { as: (await ownerSession()).owner, body: { publicComments: true } });
    expect((await anon(`/api/pages/${intro.id}/comments`)).body.map((c: any) => c.body)).toEqual(["first!"]);
  });

  test("lose the space when it is archived, made private or the setting goes off", async () => {
    const { owner, intro } = await setup();
    setSetting(env.core, "allowPublicSpaces", true);
    expect((await anon(`/api/pages/${intro.id}`)).status).toBe(200);
    await call(env, "POST", "/api/spaces/PUBLIC/archive", { as: owner });
    expect((await anon(`/api/pages/${intro.id}`)).status).toBe(404);
    await call(env, "POST", "/api/spaces/PUBLIC/unarchive", { as: owner });
    await call(env, "PUT", "/api/admin/spaces/PUBLIC/public", { as: owner, body: { isPublic: false } });
    expect((await anon(`/api/pages/${intro.id}`)).status).toBe(404);
    await call(env, "PUT", "/api/admin/spaces/PUBLIC/public", { as: owner, body: { isPublic: true } });
    setSetting(env.core, "allowPublicSpaces", false);
    expect((await anon(`/api/pages/${intro.id}`)).status).toBe(404);
  });

  test("page reads carry an ETag and answer 304 while unchanged; signed-in reads are private", async () => {
    const { owner, intro } = await setup();
    setSetting(env.core, "allowPublicSpaces", true);
    const first = await anon(`/api/pages/${intro.id}`);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get("cache-control")).toBe("public, no-cache");
    expect(first.headers.get("vary")).toContain("Cookie");
    const again = await anon(`/api/pages/${intro.id}`, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    await call(env, "PUT", `/api/pages/${intro.id}`, { as: owner, body: { title: "Intro 2" } });
    expect((await anon(`/api/pages/${intro.id}`, { "if-none-match": etag })).status).toBe(200);
    const mine = await call(env, "GET", `/api/pages/${intro.id}`, { as: owner, headers: { "if-none-match": etag } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("cache-control")).toBe("private, no-store");
    expect(mine.headers.get("etag")).toBeNull();
  });
});

describe("signed-in readers of a public space", () => {
  test("without a grant read it like anonymous readers (View), and may comment", async () => {
    const { owner, member, intro } = await setup();
    setSetting(env.core, "allowPublicSpaces", true);
    const grants = (await call(env, "GET", "/api/spaces/PUBLIC/permissions", { as: owner })).body;
    await call(env, "DELETE", `/api/spaces/PUBLIC/permissions/${grants.find((g: any) => g.operation === 1).id}`, { as: owner });
    expect((await call(env, "GET", `/api/pages/${intro.id}`, { as: member })).body.canEdit).toBe(false);
    expect((await call(env, "PUT", `/api/pages/${intro.id}`, { as: member, body: { title: "x" } })).status).toBe(403);
    expect((await call(env, "POST", `/api/pages/${intro.id}/comments`, { as: member, body: { body: "hi" } })).status).toBe(201);
  });
});

async function ownerSession() {
  const login = await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: PASSWORD } });
  return { owner: { cookie: cookieFrom(login) } };
}

describe("PUT /api/admin/spaces/{key}/public", () => {
  test("needs spaces.publish (403), a recent re-authentication (tokens 403 reauth_required), an existing space (404)", async () => {
    const { owner, member } = await ownerAndMember(env);
    await newSpace(env, member, "MINE");
    const body = { isPublic: true };
    expect((await call(env, "PUT", "/api/admin/spaces/MINE/public", { as: member, body })).body).toMatchObject({
      status: 403,
      code: "permission_required",
    });
    const token = await mintToken(env, owner);
    expect((await call(env, "PUT", "/api/admin/spaces/MINE/public", { as: { token }, body })).body.code).toBe("reauth_required");
    expect((await call(env, "PUT", "/api/admin/spaces/NOPE/public", { as: owner, body })).status).toBe(404);
    expect((await call(env, "PUT", "/api/admin/spaces/MINE/public", { as: owner, body: {} })).body.field).toBe("isPublic");
    env.clock.advance(6 * 60 * 1000);
    expect((await call(env, "PUT", "/api/admin/spaces/MINE/public", { as: owner, body })).body.code).toBe("reauth_required");
    const fresh = await call(env, "POST", "/api/auth/reauth", { as: owner, body: { password: PASSWORD } });
    const done = await call(env, "PUT", "/api/admin/spaces/MINE/public", { as: { cookie: cookieFrom(fresh) }, body });
    expect(done).toMatchObject({ status: 200, body: { isPublic: true, publicComments: false } });
    expect(eventsOf(env, "space.visibility_changed")[0].data).toMatchObject({ key: "MINE", isPublic: { from: false, to: true } });
  });
});

describe("GET /api/admin/spaces and recover-access", () => {
  test("list every space's metadata (never content) for spaces.manage; recover-access gives an audited Admin grant", async () => {
    const { owner, member } = await ownerAndMember(env);
    const mine = await newSpace(env, member, "MINE");
    await newPage(env, member, mine.id, "Private notes");
    const grants = (await call(env, "GET", "/api/spaces/MINE/permissions", { as: member })).body;
    await call(env, "DELETE", `/api/spaces/MINE/permissions/${grants.find((g: any) => g.operation === 1).id}`, { as: member });
    expect((await call(env, "GET", "/api/admin/spaces", { as: member })).status).toBe(403);
    const list = await call(env, "GET", "/api/admin/spaces", { as: owner });
    expect(list.body).toEqual([
      expect.objectContaining({
        key: "MINE",
        pageCount: 1,
        administrators: [{ principalType: 0, principalId: member.id, principalName: "member" }],
      }),
    ]);
    expect(list.text).not.toContain("Private notes");
    expect((await call(env, "GET", "/api/spaces/MINE", { as: owner })).status).toBe(404);

    expect((await call(env, "POST", "/api/admin/spaces/MINE/recover-access", { as: member })).status).toBe(403);
    expect((await call(env, "POST", "/api/admin/spaces/NOPE/recover-access", { as: owner })).status).toBe(404);
    const recovered = await call(env, "POST", "/api/admin/spaces/MINE/recover-access", { as: owner });
    expect(recovered).toMatchObject({ status: 200, body: { principalType: 0, principalId: owner.id, operation: 2 } });
    expect((await call(env, "GET", "/api/spaces/MINE", { as: owner })).status).toBe(200);
    expect(auditOf(env, "space.access_recovered")).toEqual([expect.objectContaining({ actorId: owner.id, targetId: mine.id })]);
  });
});
