/**
 * After a bulk catch-up the index is merged into one segment per FTS5 table (fts5-merge.ts):
 * searches answer the same, FTS5 finds the index sound, and no kept answer is dropped for it.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { call, makeEnv, signUp, type TestEnv } from "../../tests/harness";
import { newPage, newSpace } from "../pages/testing";
import { catchUpSearchIndex, searchIndex, tidySearchIndex } from "./indexer";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const INDEXES = ["search_words", "search_recent", "search_titles", "search_title_words"];
const segments = (index: string) =>
  env.core.sqlite.query<{ n: number }, []>(`SELECT count(DISTINCT segid) AS n FROM ${index}_idx`).get()!.n;
const doc = (word: string) =>
  JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: `A page about ${word} and gardens` }] }] });

test("tidying merges each index into one segment; searches answer the same and the stamp stays", async () => {
  const owner = await signUp(env, "owner@example.com");
  const space = await newSpace(env, owner, "TIDY");
  // One catch-up per page: one segment per page and index, as edits between bulk work leave them.
  for (let i = 0; i < 12; i++) {
    await newPage(env, owner, space.id, `Tidy page ${i}`, { contentJson: doc(i % 2 ? "compost" : "orchard") });
    searchIndex(env.core).catchUp();
  }
  for (const index of INDEXES) expect(segments(index)).toBeGreaterThan(4);
  const search = async (q: string) =>
    (await call(env, "GET", `/api/search?q=${encodeURIComponent(q)}`, { as: owner })).body.map((r: { pageId: string }) => r.pageId).sort();
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

test("the drain tidies the index after a bulk backlog, not after a few pages", async () => {
  const owner = await signUp(env, "owner@example.com");
  const space = await newSpace(env, owner, "DRAIN");
  for (let i = 0; i < 6; i++) {
    await newPage(env, owner, space.id, `Drain page ${i}`, { contentJson: doc("compost") });
    searchIndex(env.core).catchUp();
  }
  const spread = segments("search_words");
  expect(spread).toBeGreaterThan(4);
  // A few pages through the drain: no tidying.
  const dirty = () => env.core.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM search_dirty").get()!.n;
  await newPage(env, owner, space.id, "One more", { contentJson: doc("orchard") });
  for (let waited = 0; dirty() > 0 && waited < 5_000; waited += 20) await Bun.sleep(20);
  await Bun.sleep(100);
  expect(segments("search_words")).toBeGreaterThan(spread);
  // A bulk backlog (3,000 pages marked, as a restore marks every page; these ids hold no page,
  // so each is only dropped from the indexes): drained in turns, then the index is merged.
  searchIndex(env.core).markDirty(Array.from({ length: 3_000 }, (_, i) => 1_000_000 + i));
  catchUpSearchIndex(env.core);
  const merged = () => INDEXES.every((index) => segments(index) === 1);
  for (let waited = 0; (dirty() > 0 || !merged()) && waited < 30_000; waited += 20) await Bun.sleep(20);
  for (const index of INDEXES) expect(segments(index)).toBe(1);
  expect((await call(env, "GET", "/api/search?q=compost", { as: owner })).body).toHaveLength(6);
}, 60_000);
