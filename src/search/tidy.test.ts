/**
 * After a bulk catch-up the index is merged into one segment per FTS5 table (fts5-merge.ts):
 * searches answer the same, FTS5 finds the index sound, and no kept answer is dropped for it.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { call, makeEnv, signUp, type TestEnv } from "../../tests/harness";
import { newPage, newSpace } from "../pages/testing";
import { searchIndex, tidySearchIndex } from "./indexer";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const INDEXES = ["search_words", "search_recent", "search_titles", "search_title_words"];
const segments = (index: string) => env.core.sqlite.query<{ n: number }, []>(`SELECT count(DISTINCT segid) AS n FROM ${index}_idx`).get()!.n;
const doc = (word: string) => JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: `A page about ${word} and gardens` }] }] });

test("tidying merges each index into one segment; searches answer the same and the stamp stays", async () => {
  const owner = await signUp(env, "owner@example.com");
  const space = await newSpace(env, owner, "TIDY");
  // One catch-up per page: one segment per page and index, as edits between bulk work leave them.
  for (let i = 0; i < 12; i++) {
    await newPage(env, owner, space.id, `Tidy page ${i}`, { contentJson: doc(i % 2 ? "compost" : "orchard") });
    searchIndex(env.core).catchUp();
  }
  for (const index of INDEXES) expect(segments(index)).toBeGreaterThan(4);
  const search = async (q: string) => (await call(env, "GET", `/api/search?q=${encodeURIComponent(q)}`, { as: owner })).body.map((r: { pageId: string }) => r.pageId).sort();
  const before = { compost: await search("compost"), orchard: await search("orchard"), fragment: await search("idy pa") };
  expect(before.compost).toHaveLength(6);
  const stamp = env.core.stamp.current();

  tidySearchIndex(env.core);
  expect(env.core.stamp.current()).toBe(stamp);

  for (const index of INDEXES) {
    expect(segments(index)).toBe(1);
    // FTS5's own check of the merged structure (throws when it finds it corrupt).
    env.core.sqlite.run(`INSERT INTO ${index} (${index}, rank) VALUES ('integrity-check', 0)`);
  }
  expect({ compost: await search("compost"), orchard: await search("orchard"), fragment: await search("idy pa") }).toEqual(before);
  // Already tidy: a step finds nothing to do.
  expect(searchIndex(env.core).tidy(64)).toBe(true);
  // Pages edited afterwards are indexed and found as before.
  const later = await newPage(env, owner, space.id, "Later page", { contentJson: doc("compost") });
  expect(await search("compost")).toContain(later.id);
});
