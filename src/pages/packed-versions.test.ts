/**
 * Page and version documents are stored packed (platform/db/packed-text.ts): every reader answers the
 * same document, and rows stored as text (before packing, or by a raw insert) still read.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv } from "../../tests/harness";
import { newPage, newSpace } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

/** A document of `n` paragraphs: several KB of JSON, as real pages are. */
function longDoc(word: string, n = 80): string {
  return JSON.stringify({
    type: "doc",
    content: Array.from({ length: n }, (_, i) => ({
      type: "paragraph",
      content: [{ type: "text", text: `${word} paragraph ${i}, with ümlauts and 漢字.` }],
    })),
  });
}

const stored = (pageId: string, n: number) =>
  env.core.sqlite
    .query<{ kind: string; bytes: number }, [string, number]>(
      "SELECT typeof(content_json) AS kind, length(content_json) AS bytes FROM page_versions WHERE page_id = ? AND version_number = ?",
    )
    .get(pageId, n)!;

test("a large page and its versions are stored compressed and every reader answers the document unchanged", async () => {
  const { owner } = await ownerAndMember(env);
  const space = await newSpace(env, owner, "DOCS");
  const page = await newPage(env, owner, space.id, "Long", { contentJson: longDoc("first") });
  expect(
    (
      await call(env, "PUT", `/api/pages/${page.id}`, {
        as: owner,
        body: { title: "Long", contentJson: longDoc("second"), baseVersion: 1 },
      })
    ).status,
  ).toBe(200);
  // The page row's document too; its text stays text (search reads it often).
  expect(
    env.core.sqlite.query("SELECT typeof(content_json) AS doc, typeof(plain_text) AS text FROM pages WHERE id = ?").get(page.id),
  ).toEqual({ doc: "blob", text: "text" });
  expect((await call(env, "GET", `/api/pages/${page.id}`, { as: owner })).body.contentJson).toBe(longDoc("second"));
  const v1 = stored(page.id, 1);
  expect(v1.kind).toBe("blob");
  expect(v1.bytes).toBeLessThan(Buffer.byteLength(longDoc("first")) / 3);
  expect((await call(env, "GET", `/api/pages/${page.id}/versions/1`, { as: owner })).body.contentJson).toBe(longDoc("first"));
  expect((await call(env, "GET", `/api/pages/${page.id}/versions/2`, { as: owner })).body.contentJson).toBe(longDoc("second"));
  const restored = await call(env, "POST", `/api/pages/${page.id}/versions/1/restore`, { as: owner });
  expect(restored.body).toMatchObject({ contentJson: longDoc("first"), currentVersionNumber: 3 });
  expect((await call(env, "GET", `/api/pages/${page.id}/versions/3`, { as: owner })).body.contentJson).toBe(longDoc("first"));
});

test("versions stored as text (before packing, or by a raw insert) read as before", async () => {
  const { owner } = await ownerAndMember(env);
  const space = await newSpace(env, owner, "DOCS");
  const page = await newPage(env, owner, space.id, "Old", { contentJson: longDoc("old") });
  // The row as the schema before packing wrote it: the JSON text itself.
  env.core.sqlite.query("UPDATE page_versions SET content_json = ? WHERE page_id = ?").run(longDoc("old"), page.id);
  expect(stored(page.id, 1).kind).toBe("text");
  expect((await call(env, "GET", `/api/pages/${page.id}/versions/1`, { as: owner })).body.contentJson).toBe(longDoc("old"));
  await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { title: "Old", contentJson: longDoc("new"), baseVersion: 1 } });
  const back = await call(env, "POST", `/api/pages/${page.id}/versions/1/restore`, { as: owner });
  expect(back.body.contentJson).toBe(longDoc("old"));
});
