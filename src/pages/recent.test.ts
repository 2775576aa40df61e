import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv } from "../../tests/harness";
import { doc, newPage, newSpace } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const recent = (who: { cookie: string }, query: string) => call(env, "GET", `/api/pages/recent?${query}`, { as: who });

describe("GET /api/pages/recent", () => {
  test("lists a space's live published pages, last updated first, with who changed each", async () => {
    const { owner, member } = await ownerAndMember(env);
    const space = await newSpace(env, owner, "DOCS");
    const a = await newPage(env, owner, space.id, "A");
    env.clock.advance(1000);
    const b = await newPage(env, owner, space.id, "B");
    env.clock.advance(1000);
    const c = await newPage(env, owner, space.id, "C");
    env.clock.advance(1000);
    // A is edited last, by the member; C goes to the trash; a draft never shows.
    expect((await call(env, "PUT", `/api/pages/${a.id}`, { as: member, body: { contentJson: doc("new") } })).status).toBe(200);
    expect((await call(env, "DELETE", `/api/pages/${c.id}`, { as: owner })).status).toBe(204);
    expect((await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } })).status).toBe(201);
    const res = await recent(owner, `spaceId=${space.id}`);
    expect(res.status).toBe(200);
    expect(res.body.map((p: { title: string }) => p.title)).toEqual(["A", "B"]);
    expect(res.body[0]).toMatchObject({ id: a.id, updatedById: member.id, updatedByName: "member", emoji: null, parentPageId: null });
    // By key too, and limited.
    const one = await recent(owner, "spaceId=docs&limit=1");
    expect(one.body.map((p: { id: string }) => p.id)).toEqual([a.id]);
    expect(b.id).toBeString();
  });

  test("leaves out pages a View restriction hides from the caller", async () => {
    const { owner, member } = await ownerAndMember(env);
    const space = await newSpace(env, owner, "DOCS");
    await newPage(env, owner, space.id, "Open");
    const secret = await newPage(env, owner, space.id, "Secret");
    const restricted = await call(env, "POST", `/api/pages/${secret.id}/restrictions`, {
      as: owner,
      body: { principalType: 0, principalId: owner.id, operation: 0 },
    });
    expect(restricted.status).toBe(201);
    expect((await recent(member, `spaceId=${space.id}`)).body.map((p: { title: string }) => p.title)).toEqual(["Open"]);
    expect((await recent(owner, `spaceId=${space.id}`)).body.map((p: { title: string }) => p.title)).toEqual(["Secret", "Open"]);
  });

  test.each([
    ["spaceId=NOPE", 404],
    ["", 400],
    ["spaceId=DOCS&limit=0", 400],
    ["spaceId=DOCS&limit=51", 400],
    ["spaceId=DOCS&limit=ten", 400],
  ])("?%s answers %d", async (query, status) => {
    const { owner } = await ownerAndMember(env);
    await newSpace(env, owner, "DOCS");
    const res = await recent(owner, query);
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body.field).toMatch(/spaceId|limit/);
  });
});
