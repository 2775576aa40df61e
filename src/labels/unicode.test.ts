import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, type TestEnv, type Who } from "../../tests/harness";
import { eventsOf, newPage, ownerMemberAndPage } from "../pages/testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const add = (who: Who, pageId: string, name: string) => call(env, "POST", `/api/pages/${pageId}/labels`, { as: who, body: { name } });
const path = (name: string) => `/api/labels/${encodeURIComponent(name)}/pages`;
const names = (answer: { body: { name: string }[] }) => answer.body.map((l) => l.name);

describe("Unicode label names over HTTP", () => {
  // [why, as first added, stored, other spellings of the same label]
  test.each([
    ["Chinese", "数据库", "数据库", []],
    ["Greek with a final sigma", "ΟΔΟΣ", "οδος", ["Οδος", "οδοσ", "οδος"]],
    ["German ß (and capital ẞ)", "Straße", "straße", ["STRAẞE"]],
    ["Turkish dotted İ", "İzmir", "izmir", ["IZMIR", "izmir"]],
    ["an accent, composed or not", "Café", "café", ["cafe\u0301", "CAFÉ"]],
    ["fullwidth letters", "ＤＯＣＳ", "docs", ["Docs"]],
  ])("%s: added, listed, found and removed under any spelling", async (_why, first, stored, others) => {
    const { owner, member, page } = await ownerMemberAndPage(env);
    const added = await add(owner, page.id, first);
    expect(added.status).toBe(201);
    expect(added.body.name).toBe(stored);
    for (const other of others) expect(await add(owner, page.id, other)).toMatchObject({ status: 200, body: added.body });
    expect(eventsOf(env, "label.added")).toHaveLength(1);

    expect(names(await call(env, "GET", "/api/labels", { as: member }))).toEqual([stored]);
    expect(names(await call(env, "GET", `/api/pages/${page.id}/labels`, { as: member }))).toEqual([stored]);
    for (const spelling of [first, stored, ...others]) {
      const found = await call(env, "GET", path(spelling), { as: member });
      expect(found.status).toBe(200);
      expect(found.body.map((p: { id: string }) => p.id)).toEqual([page.id]);
    }

    const last = others.at(-1) ?? stored;
    expect((await call(env, "DELETE", `/api/pages/${page.id}/labels/${encodeURIComponent(last)}`, { as: owner })).status).toBe(204);
    expect(eventsOf(env, "label.removed")[0].data).toMatchObject({ name: stored });
    expect(names(await call(env, "GET", "/api/labels", { as: member }))).toEqual([]);
  });

  test("emoji and invisible characters are refused in the body and in the path alike", async () => {
    const { owner, page } = await ownerMemberAndPage(env);
    for (const name of ["🚀", "ops🚀", "❤️", "a\u200Db", "\u3164"]) {
      expect(await add(owner, page.id, name)).toMatchObject({ status: 400, body: { field: "name" } });
      expect(await call(env, "GET", path(name), { as: owner })).toMatchObject({ status: 400, body: { field: "name" } });
    }
  });

  test("GET /api/labels and a page's own list sort by code point, outside the BMP too", async () => {
    const { owner, space, page } = await ownerMemberAndPage(env);
    const other = await newPage(env, owner, space.id, "Other");
    // U+FA0E is a unified ideograph in the compatibility block (NFKC keeps it); U+20000 comes
    // after it in code points but before it in UTF-16 units.
    const inOrder = ["ops", "zeta", "é", "δ", "数据", "\uFA0E", "𠀀"];
    for (const name of [...inOrder].reverse()) {
      expect((await add(owner, page.id, name)).status).toBe(201);
      expect((await add(owner, other.id, name)).status).toBe(201);
    }
    const listed = await call(env, "GET", "/api/labels", { as: owner });
    expect(listed.body.map((l: { name: string; pageCount: number }) => [l.name, l.pageCount])).toEqual(inOrder.map((n) => [n, 2]));
    expect(names(await call(env, "GET", `/api/pages/${page.id}/labels`, { as: owner }))).toEqual(inOrder);
  });
});
