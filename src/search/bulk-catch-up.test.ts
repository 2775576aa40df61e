/**
 * A bulk catch-up (more than one batch in one call, as seeding does) defers FTS5's merging to the
 * tidy after it (fts5-settings.ts): the same pages are found, ranked the same, as when the index
 * caught up a batch at a time, FTS5 finds the index sound, and the merge settings are FTS5's
 * defaults again afterwards, or after a crash by the next process's first batch.
 */
import { rmSync } from "node:fs";
import { afterEach, expect, test } from "bun:test";
import { call, makeEnv, type TestEnv, type Who, ownerWithSpace } from "../../tests/harness";
import type { UserCaller } from "../identity/caller";
import { createPage } from "../pages/service";
import { findUserWithRoleById } from "../users/service";
import { catchUpSearchIndex, searchIndex, tidySearchIndex } from "./indexer";

const envs: TestEnv[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const env of envs.splice(0)) env.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const INDEXES = ["search_words", "search_recent", "search_titles", "search_title_words"];
const WORDS = ["gateway", "scheduler", "orchard", "compost", "ledger", "harbour", "lantern"];
const docWith = (text: string) => JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });

async function wiki(): Promise<{ env: TestEnv; owner: Who & { id: string }; spaceId: string }> {
  const env = makeEnv({ env: { CAIRN_SEARCH_RECENT_PAGES: "400" } });
  envs.push(env);
  const { owner, spaceId } = await ownerWithSpace(env);
  return { env, owner, spaceId };
}

/** `count` pages in one transaction (committed), none indexed yet. */
async function pages(env: TestEnv, ownerId: string, spaceId: string, count: number): Promise<void> {
  const found = findUserWithRoleById(env.core, ownerId)!;
  const caller: UserCaller = {
    kind: "user",
    ip: "local",
    user: found.user,
    role: found.role,
    permissions: new Set(found.role.permissions),
    session: null,
    token: null,
  };
  env.core.tx(() => {
    for (let i = 0; i < count; i++) {
      const words = [0, 1, 2].map((k) => WORDS[(i * (k + 2) + k) % WORDS.length]);
      createPage(env.core, caller, {
        spaceId,
        title: `Runbook ${i} ${words[0]}`,
        contentJson: docWith(`restart the ${words.join(" ")} ${i % 3 ? "nightly" : "weekly"}`),
      });
    }
  });
  await env.core.commits.durable();
}

const setting = (env: TestEnv, index: string, k: string) =>
  env.core.sqlite.query<{ v: number }, []>(`SELECT v FROM ${index}_config WHERE k = '${k}'`).get()?.v ?? null;
/** FTS5's merge settings as it uses them (absent from _config: its defaults, 4 and 16). */
const merging = (env: TestEnv, index: string) => [setting(env, index, "automerge") ?? 4, setting(env, index, "crisismerge") ?? 16];

async function answers(env: TestEnv, owner: Who): Promise<string[][]> {
  const queries = [...WORDS, "gateway nightly", "orchard -compost", "unbook 1", "weekly"];
  const out: string[][] = [];
  for (const q of queries)
    out.push(
      (await call(env, "GET", `/api/search?q=${encodeURIComponent(q)}&limit=50`, { as: owner })).body.map(
        (h: { title: string }) => h.title,
      ),
    );
  return out;
}

test("a bulk catch-up merges nothing until the tidy, answers as a batch-at-a-time one, and puts FTS5's defaults back", async () => {
  const bulk = await wiki();
  const steady = await wiki();
  for (const w of [bulk, steady]) await pages(w.env, w.owner.id, w.spaceId, 1_100);

  // What the index's settings are in each indexing transaction, seen just before its COMMIT.
  const seen: number[][] = [];
  bulk.env.core.beforeCommit(() => seen.push(merging(bulk.env, "search_words")));
  searchIndex(bulk.env.core).catchUp();
  while (!searchIndex(steady.env.core).catchUp(500));

  // The first batch as always, the next ones deferring merges, then the defaults again.
  expect(seen[0]).toEqual([4, 16]);
  expect(seen.slice(1, -1).every(([automerge, crisis]) => automerge === 0 && crisis === 64)).toBe(true);
  expect(seen.length).toBeGreaterThan(2);
  for (const index of INDEXES) expect(merging(bulk.env, index)).toEqual([4, 16]);

  const expected = await answers(steady.env, steady.owner);
  expect(expected.every((titles) => titles.length > 0)).toBe(true);
  expect(await answers(bulk.env, bulk.owner)).toEqual(expected);
  tidySearchIndex(bulk.env.core);
  for (const index of INDEXES) bulk.env.core.sqlite.run(`INSERT INTO ${index} (${index}, rank) VALUES ('integrity-check', 0)`);
  expect(await answers(bulk.env, bulk.owner)).toEqual(expected);
}, 60_000);

test("merge settings a crashed bulk catch-up left are put back by the next batch; a bounded catch-up never defers merges", async () => {
  const { env: before, owner, spaceId } = await wiki();
  await pages(before, owner.id, spaceId, 3);
  catchUpSearchIndex(before.core);
  await before.core.commits.durable();
  // As a process that died in the middle of a bulk catch-up leaves them.
  for (const index of INDEXES) {
    before.core.sqlite.run(`INSERT INTO ${index} (${index}, rank) VALUES ('automerge', 0)`);
    before.core.sqlite.run(`INSERT INTO ${index} (${index}, rank) VALUES ('crisismerge', 64)`);
  }
  // The next process on the same data directory.
  envs.splice(envs.indexOf(before), 1);
  before.core.close();
  const env = makeEnv({ dir: before.dir, env: { CAIRN_SEARCH_RECENT_PAGES: "400" } });
  envs.push(env);
  dirs.push(before.dir);
  await pages(env, owner.id, spaceId, 2);
  searchIndex(env.core).catchUp(500);
  for (const index of INDEXES) expect(merging(env, index)).toEqual([4, 16]);
  expect((await call(env, "GET", "/api/search?q=runbook", { as: owner })).body).toHaveLength(5);
}, 30_000);
