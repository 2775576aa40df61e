import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, cookieFrom, makeEnv, mintToken, ownerAndMember, PASSWORD, type TestEnv, type Who } from "../../tests/harness";
import { newPage, newSpace } from "../pages/testing";
import { inbox, unread, watch } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

/** member watches DOCS; owner creates `n` pages there, one second apart: member has n entries. */
async function setup(n = 3) {
  const { owner, member } = await ownerAndMember(env);
  const space = await newSpace(env, owner, "DOCS");
  await watch(env, member, "/api/spaces/DOCS");
  const pages = [];
  for (let i = 1; i <= n; i++) {
    env.clock.advance(1000);
    pages.push(await newPage(env, owner, space.id, `Page ${i}`));
  }
  return { owner, member, space, pages };
}

const read = (who: Who, id: string) => call(env, "POST", `/api/notifications/${id}/read`, { as: who });
const titles = async (who: Who, query = "") => (await inbox(env, who, query)).map((n) => n.details.pageTitle);

describe("GET /api/notifications", () => {
  test("newest first, each person only their own", async () => {
    const { owner, member } = await setup();
    expect(await titles(member)).toEqual(["Page 3", "Page 2", "Page 1"]);
    expect(await inbox(env, owner)).toEqual([]);
  });

  test("entries of the same instant keep their order (newest first by id)", async () => {
    const { owner, member, space } = await setup(0);
    for (const t of ["A", "B", "C"]) await newPage(env, owner, space.id, t);
    expect(await titles(member)).toEqual(["C", "B", "A"]);
  });

  test("take: 50 by default, at most 200", async () => {
    const { member } = await setup(55);
    expect(await inbox(env, member)).toHaveLength(50);
    expect(await titles(member, "?take=2")).toEqual(["Page 55", "Page 54"]);
    expect(await inbox(env, member, "?take=200")).toHaveLength(55);
  });

  test.each([["0"], ["201"], ["-1"], ["1.5"], ["many"], [""]])("take=%s is a 400 on take", async (take) => {
    const { member } = await setup(1);
    const res = await call(env, "GET", `/api/notifications?take=${take}`, { as: member });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("take");
  });

  test("unreadOnly lists only what is unread; a bad value is a 400 on unreadOnly", async () => {
    const { member } = await setup();
    const [newest] = await inbox(env, member);
    expect((await read(member, newest.id)).status).toBe(204);
    expect(await titles(member, "?unreadOnly=true")).toEqual(["Page 2", "Page 1"]);
    expect(await titles(member, "?unreadOnly=false")).toEqual(["Page 3", "Page 2", "Page 1"]);
    const bad = await call(env, "GET", "/api/notifications?unreadOnly=perhaps", { as: member });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("unreadOnly");
  });

  test("a read-only token may list and count; anonymous callers get 401 on every endpoint", async () => {
    const { member } = await setup(1);
    const ro = await mintToken(env, member, { name: "ro", readOnly: true });
    expect(await inbox(env, { token: ro })).toHaveLength(1);
    expect(await unread(env, { token: ro })).toBe(1);
    const [n] = await inbox(env, member);
    for (const [method, path] of [
      ["GET", "/api/notifications"],
      ["GET", "/api/notifications/unread-count"],
      ["POST", "/api/notifications/read-all"],
      ["POST", `/api/notifications/${n.id}/read`],
    ]) {
      expect((await call(env, method, path)).status).toBe(401);
    }
  });
});

describe("reading", () => {
  test("POST /{id}/read marks one entry read (204), again changes nothing; the unread count follows", async () => {
    const { member } = await setup();
    expect(await unread(env, member)).toBe(3);
    const [, middle] = await inbox(env, member);
    expect((await read(member, middle.id)).status).toBe(204);
    const readAt = (await inbox(env, member)).find((n) => n.id === middle.id)!.readAt;
    expect(readAt).toBe(new Date(env.clock.now()).toISOString());
    env.clock.advance(60_000);
    expect((await read(member, middle.id)).status).toBe(204);
    expect((await inbox(env, member)).find((n) => n.id === middle.id)!.readAt).toBe(readAt);
    expect(await unread(env, member)).toBe(2);
  });

  test("someone else's entry, an unknown id or a malformed one is 404, and nothing changes", async () => {
    const { owner, member } = await setup(1);
    const [n] = await inbox(env, member);
    for (const id of [n.id, "0190a6c8-0000-7000-8000-00000000dead", "not-an-id"]) {
      const res = await read(owner, id);
      expect(res.status).toBe(404);
    }
    expect(await unread(env, member)).toBe(1);
  });

  test("a read-only token cannot mark read (403 read_only_token); a full token can", async () => {
    const { member } = await setup(1);
    const [n] = await inbox(env, member);
    const ro = await mintToken(env, member, { name: "ro", readOnly: true });
    const res = await read({ token: ro }, n.id);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("read_only_token");
    expect((await read({ token: await mintToken(env, member, { name: "full" }) }, n.id)).status).toBe(204);
    expect(await unread(env, member)).toBe(0);
  });

  test("POST /read-all marks every unread entry of the caller's read (204), nobody else's", async () => {
    const { owner, member, space } = await setup();
    await watch(env, owner, "/api/spaces/DOCS");
    await newPage(env, member, space.id, "By member");
    expect(await unread(env, owner)).toBe(1);
    expect((await call(env, "POST", "/api/notifications/read-all", { as: member })).status).toBe(204);
    expect(await unread(env, member)).toBe(0);
    expect(await inbox(env, member, "?unreadOnly=true")).toEqual([]);
    expect(await unread(env, owner)).toBe(1);
    expect((await call(env, "POST", "/api/notifications/read-all", { as: member })).status).toBe(204);
  });
});

describe("entries about what the reader can no longer see", () => {
  test("a comment since deleted is left out of the list and the count, and cannot be marked read", async () => {
    const { owner, member, pages } = await setup(1);
    await watch(env, member, `/api/pages/${pages[0].id}`);
    const c = await call(env, "POST", `/api/pages/${pages[0].id}/comments`, { as: owner, body: { body: "Secret plans" } });
    const [entry] = await inbox(env, member);
    expect(entry).toMatchObject({ action: "comment.created", targetId: c.body.id });
    expect(await unread(env, member)).toBe(2);
    expect((await call(env, "DELETE", `/api/comments/${c.body.id}`, { as: owner })).status).toBe(204);
    expect(await titles(member)).toEqual(["Page 1"]);
    expect(await unread(env, member)).toBe(1);
    expect((await read(member, entry.id)).status).toBe(404);
  });

  test("a page purged from the trash takes its entries with it; its space's deletion takes the rest", async () => {
    const { owner, member, pages } = await setup(2);
    expect((await call(env, "DELETE", `/api/pages/${pages[0].id}`, { as: owner })).status).toBe(204);
    // In the trash the page is still readable, so its entry stays.
    expect(await titles(member)).toEqual(["Page 2", "Page 1"]);
    // Purging needs a fresh re-authentication, which issues a new session.
    const reauth = await call(env, "POST", "/api/auth/reauth", { as: owner, body: { password: PASSWORD } });
    const fresh = { cookie: cookieFrom(reauth) };
    expect((await call(env, "DELETE", `/api/pages/${pages[0].id}/purge`, { as: fresh })).status).toBe(204);
    expect(await titles(member)).toEqual(["Page 2"]);
    expect((await call(env, "DELETE", "/api/spaces/DOCS", { as: fresh, body: { confirmKey: "DOCS", password: PASSWORD } })).status).toBe(
      204,
    );
    expect(await inbox(env, member)).toEqual([]);
    expect(await unread(env, member)).toBe(0);
  });
});
