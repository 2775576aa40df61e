import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { doc, newPage, newSpace } from "../pages/testing";
import { pageViews, VIEW_FLUSH_MS } from "./page-views";

let env: TestEnv;
beforeEach(() => {
  env = makeEnv();
});
afterEach(() => env.close());

const read = (who: Who, pageId: string) => call(env, "GET", `/api/pages/${pageId}`, { as: who });
const viewed = async (who: Who | { token: string } | undefined, query = "") => call(env, "GET", `/api/pages/viewed${query}`, { as: who });
const titles = async (who: Who) => ((await viewed(who)).body as Array<{ title: string }>).map((p) => p.title);

describe("GET /api/pages/viewed", () => {
  test("the pages this person read, newest first, each once; another person's list is their own", async () => {
    const { owner, member } = await ownerAndMember(env);
    const space = await newSpace(env, owner, "ENG", "Engineering");
    const a = await newPage(env, owner, space.id, "Alpha", { contentJson: doc("a") });
    const b = await newPage(env, owner, space.id, "Beta", { contentJson: doc("b") });
    expect(await titles(owner)).toEqual([]);
    await read(owner, a.id);
    await read(owner, b.id);
    // Read at once after the reads (the list writes what waits in memory first).
    expect(await titles(owner)).toEqual(["Beta", "Alpha"]);
    env.clock.advance(1000);
    await read(owner, a.id); // read again, even within the views' repeat window: moves up
    expect(await titles(owner)).toEqual(["Alpha", "Beta"]);
    const [first] = (await viewed(owner)).body;
    expect(first).toMatchObject({ id: a.id, spaceKey: "ENG", space: "Engineering", emoji: null });
    expect(await titles(member)).toEqual([]);
  });

  test("reads are not written one by one: the list and the minute's flush write them", async () => {
    const { owner } = await ownerAndMember(env);
    const space = await newSpace(env, owner, "ENG", "Engineering");
    const a = await newPage(env, owner, space.id, "Alpha", { contentJson: doc("a") });
    await read(owner, a.id);
    const rows = () => (env.core.sqlite.query("SELECT count(*) AS n FROM recent_views").get() as { n: number }).n;
    expect(rows()).toBe(0);
    pageViews(env.core).flush();
    expect(rows()).toBe(1);
    expect(VIEW_FLUSH_MS).toBe(60_000);
  });

  test("at most 20 kept per person; the limit is 1 to 20, a 400 naming limit otherwise", async () => {
    const { owner } = await ownerAndMember(env);
    const space = await newSpace(env, owner, "ENG", "Engineering");
    for (let i = 0; i < 23; i++) {
      const p = await newPage(env, owner, space.id, `Page ${i}`, { contentJson: doc("x") });
      env.clock.advance(1000);
      await read(owner, p.id);
    }
    pageViews(env.core).flush();
    expect((env.core.sqlite.query("SELECT count(*) AS n FROM recent_views").get() as { n: number }).n).toBe(20);
    expect((await viewed(owner, "?limit=20")).body.map((p: { title: string }) => p.title).slice(0, 2)).toEqual(["Page 22", "Page 21"]);
    expect(await titles(owner)).toHaveLength(10);
    for (const bad of ["0", "21", "abc", "1.5"]) {
      const res = await viewed(owner, `?limit=${bad}`);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain("limit");
    }
  });

  test("pages since trashed, restricted away or purged drop out; anonymous callers get 401; tokens do not count as reading", async () => {
    const { owner, member } = await ownerAndMember(env);
    const space = await newSpace(env, owner, "ENG", "Engineering");
    const open = await newPage(env, owner, space.id, "Open", { contentJson: doc("a") });
    const secret = await newPage(env, owner, space.id, "Secret", { contentJson: doc("b") });
    const gone = await newPage(env, owner, space.id, "Gone", { contentJson: doc("c") });
    for (const p of [open, secret, gone]) await read(member, p.id);
    expect(await titles(member)).toEqual(["Gone", "Secret", "Open"]);
    expect(
      (
        await call(env, "POST", `/api/pages/${secret.id}/restrictions`, {
          as: owner,
          body: { principalType: 0, principalId: owner.id, operation: 0 },
        })
      ).status,
    ).toBe(201);
    expect((await call(env, "DELETE", `/api/pages/${gone.id}`, { as: owner })).status).toBe(204);
    expect(await titles(member)).toEqual(["Open"]);
    expect((await viewed(undefined)).status).toBe(401);
    const token = await mintToken(env, owner);
    await call(env, "GET", `/api/pages/${open.id}`, { as: { token } });
    expect(await titles(owner)).toEqual([]);
  });
});
