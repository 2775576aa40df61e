/**
 * A backlog of large pages (a bulk import, a restore) drains a few pages a turn, not a fixed
 * hundred: 100 pages of ~20 KB text held every other request for 150-450 ms a turn.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { makeEnv, signUp, type TestEnv } from "../../tests/harness";
import { newPage, newSpace } from "../pages/testing";
import { searchIndex } from "./indexer";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const WORDS = ["backup", "restore", "cairn", "wiki", "garden", "server", "snapshot", "frame", "commit", "writer", "reader", "history"];
const bigText = (i: number) => Array.from({ length: 3_000 }, (_, k) => WORDS[(i * 7 + k * 5 + (k >> 3)) % WORDS.length]).join(" ");

test("a backlog of large pages is indexed in turns sized by their cost, and wholly", async () => {
  const owner = await signUp(env, "owner@example.com");
  const space = await newSpace(env, owner, "BIG");
  const ids: string[] = [];
  for (let i = 0; i < 150; i++) ids.push((await newPage(env, owner, space.id, `Big ${i}`)).id);
  const dirty = () => env.core.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM search_dirty").get()!.n;
  while (dirty() > 0) await Bun.sleep(20);
  // Every turn of the drain is watched from here on: the pages it asks for.
  const index = searchIndex(env.core);
  const catchUp = index.catchUp.bind(index);
  const asked: number[] = [];
  index.catchUp = (maxPages?: number) => (asked.push(maxPages ?? Infinity), catchUp(maxPages));
  // One transaction re-texts them all (as a slice of an import or a restore's swap would): a backlog of 150.
  const retext = env.core.sqlite.query("UPDATE pages SET plain_text = ? WHERE id = ?");
  env.core.tx(() => ids.forEach((id, i) => retext.run(bigText(i), id)));
  expect(dirty()).toBe(150);
  for (let waited = 0; dirty() > 0 && waited < 30_000; waited += 20) await Bun.sleep(20);
  expect(dirty()).toBe(0);
  // ~20 KB of text a page costs far more than the turn's 10 ms allows for 100 pages.
  expect(asked.length).toBeGreaterThan(2);
  expect(Math.max(...asked)).toBeLessThanOrEqual(25);
  const hits = env.core.sqlite
    .query<{ n: number }, []>("SELECT count(*) AS n FROM search_words WHERE search_words MATCH 'snapshot'")
    .get()!.n;
  expect(hits).toBe(150);
}, 60_000);
