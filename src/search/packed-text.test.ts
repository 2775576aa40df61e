/**
 * A long page's document is stored packed (platform/db/packed-text.ts) and its text, before it,
 * as text (migration 0033): the indexer, a hit's snippet, a title fragment's hit and the
 * vocabulary of mistyped words all read the text.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { call, makeEnv, type TestEnv, type Who, ownerWithSpace } from "../../tests/harness";

let env: TestEnv;
let owner: Who & { id: string };
let spaceId: string;
beforeEach(async () => {
  env = makeEnv();
  ({ owner, spaceId } = await ownerWithSpace(env));
});
afterEach(() => env.close());

const filler = Array.from({ length: 60 }, (_, i) => `Filler sentence number ${i} about nothing in particular.`);
const longDoc = (special: string) =>
  JSON.stringify({
    type: "doc",
    content: [...filler, special, ...filler].map((text) => ({ type: "paragraph", content: [{ type: "text", text }] })),
  });
const find = async (q: string) =>
  (await call(env, "GET", `/api/search?q=${encodeURIComponent(q)}`, { as: owner })).body as Array<{
    pageId: string;
    title: string;
    snippet: string;
  }>;

test("a long page is found by a word of its body, with its snippet, by a title fragment, and by a mistyped word", async () => {
  const res = await call(env, "POST", "/api/pages", {
    as: owner,
    body: { spaceId, title: "Kubernetes upgrades", contentJson: longDoc("We drain the kestrel nodes first.") },
  });
  expect(res.status).toBe(201);
  expect(env.core.sqlite.query("SELECT typeof(plain_text) AS kind FROM pages WHERE id = ?").get(res.body.id)).toEqual({ kind: "text" });
  expect(env.core.sqlite.query("SELECT typeof(content_json) AS kind FROM pages WHERE id = ?").get(res.body.id)).toEqual({ kind: "blob" });
  const hits = await find("kestrel drain");
  expect(hits.map((h) => h.pageId)).toEqual([res.body.id]);
  expect(hits[0].snippet).toContain("**drain** the **kestrel** nodes");
  expect((await find("bernet")).map((h) => h.pageId)).toEqual([res.body.id]);
  expect((await find("kestral")).map((h) => h.pageId)).toEqual([res.body.id]);
  // An edit is indexed again from its packed text: the old word is gone, the new one found.
  await call(env, "PUT", `/api/pages/${res.body.id}`, {
    as: owner,
    body: { title: "Kubernetes upgrades", contentJson: longDoc("We cordon the osprey nodes first."), baseVersion: 1 },
  });
  expect(await find("kestrel")).toEqual([]);
  expect((await find("osprey"))[0].snippet).toContain("**osprey**");
});
