import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, type TestEnv, type Who, ownerWithSpace } from "../../tests/harness";
import type { UserCaller } from "../identity/caller";
import { createPage } from "../pages/service";
import { findUserWithRoleById } from "../users/service";
import { startCountingStatements } from "../platform/db/statement-count";
import { catchUpSearchIndex, searchIndex } from "./indexer";

// The indexes added for first-time search (docs/decisions.md, "Title matches ranked apart" and "A
// word index of the newest pages"): search_recent, the newest pages only (fts5-recent.ts), where
// body matches are ranked when they are all there; search_title_words, titles alone
// (fts5-titles.ts); and search_backfill, which fills both for pages indexed before they existed.
// Ranking answers must be bm25's over the whole word index.

let env: TestEnv;
let owner: Who & { id: string };
let spaceId: string;
afterEach(() => env.close());

async function start(recentPages: number) {
  env = makeEnv({ env: { CAIRN_SEARCH_RECENT_PAGES: String(recentPages) } });
  ({ owner, spaceId } = await ownerWithSpace(env));
}

const docWith = (text: string) => JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });

/** Pages written through the service in one transaction (fast); answers their ids in order. */
function manyPages(count: number, title: (i: number) => string, body: (i: number) => string): string[] {
  const found = findUserWithRoleById(env.core, owner.id)!;
  const caller: UserCaller = {
    kind: "user",
    ip: "local",
    user: found.user,
    role: found.role,
    permissions: new Set(found.role.permissions),
    session: null,
    token: null,
  };
  const ids: string[] = [];
  env.core.tx(() => {
    for (let i = 0; i < count; i++) ids.push(createPage(env.core, caller, { spaceId, title: title(i), contentJson: docWith(body(i)) }).id);
  });
  searchIndex(env.core).catchUp(); // all of them (a search catches up 500, the rest drains in the background)
  return ids;
}

const ids = async (q: string) =>
  (await call(env, "GET", `/api/search?q=${encodeURIComponent(q)}`, { as: owner })).body.map((h: any) => h.pageId);
const docIds = (sqlText: string) =>
  env.core.sqlite
    .query<{ id: number }, []>(sqlText)
    .all()
    .map((r) => r.id);
const floor = () => env.core.sqlite.query<{ floor: number }, []>("SELECT floor FROM search_recent_floor").get()!.floor;

/** bm25's order over the whole word index (what search answered before these indexes), as page ids. */
function bm25Order(match: string): string[] {
  return env.core.sqlite
    .query<{ id: string }, [string]>(
      `SELECT p.id AS id FROM (SELECT rowid AS doc, bm25(search_words, 10, 1) AS score FROM search_words WHERE search_words ` +
        `MATCH ? ORDER BY rowid DESC LIMIT 1000)
       JOIN pages p ON p.doc_id = doc ORDER BY score, doc`,
    )
    .all(match)
    .map((r) => r.id);
}

describe("the recent index", () => {
  test(
    "holds the newest pages only (and every one of them); its floor never " + "moves down, so a purged newest page leaves no gap",
    async () => {
      await start(5);
      manyPages(
        8,
        (i) => `Note ${i}`,
        () => "x",
      );
      const all = docIds("SELECT doc_id AS id FROM pages ORDER BY doc_id");
      expect(docIds("SELECT id FROM search_recent_docsize ORDER BY id")).toEqual(all.slice(-5));
      expect(floor()).toBe(all.at(-1)! - 5);

      const newest = env.core.sqlite.query<{ id: string }, []>("SELECT id FROM pages ORDER BY doc_id DESC LIMIT 1").get()!.id;
      await call(env, "DELETE", `/api/pages/${newest}`, { as: owner });
      expect((await call(env, "DELETE", `/api/pages/${newest}/purge`, { as: owner })).status).toBe(204);
      catchUpSearchIndex(env.core);
      expect(floor()).toBe(all.at(-1)! - 5);
      expect(docIds("SELECT id FROM search_recent_docsize ORDER BY id")).toEqual(all.slice(-5, -1));

      // The floor moves half a window at a time at least (fewer, larger removals): two pages
      // more leave it where it was (the purge made room for one), four move it to the newest five.
      manyPages(
        2,
        (i) => `Later ${i}`,
        () => "x",
      );
      let now = docIds("SELECT doc_id AS id FROM pages ORDER BY doc_id");
      expect(floor()).toBe(all.at(-1)! - 5);
      expect(docIds("SELECT id FROM search_recent_docsize ORDER BY id")).toEqual(now.filter((id) => id > floor()));
      manyPages(
        2,
        (i) => `Latest ${i}`,
        () => "x",
      );
      now = docIds("SELECT doc_id AS id FROM pages ORDER BY doc_id");
      expect(docIds("SELECT id FROM search_recent_docsize ORDER BY id")).toEqual(now.slice(-5));
    },
  );

  test("a page edited below the floor stays out of it; one edited above is written again", async () => {
    await start(3);
    const pages = manyPages(
      5,
      (i) => `Note ${i}`,
      () => "plain",
    );
    const edit = async (id: string, text: string) => {
      const version = (await call(env, "GET", `/api/pages/${id}`, { as: owner })).body.version;
      const res = await call(env, "PUT", `/api/pages/${id}`, {
        as: owner,
        body: { title: "Edited", contentJson: docWith(text), baseVersion: version },
      });
      expect(res.status).toBe(200);
    };
    await edit(pages[0], "heron");
    await edit(pages[4], "kestrel");
    catchUpSearchIndex(env.core);
    const recent = (word: string) => docIds(`SELECT rowid AS id FROM search_recent WHERE search_recent MATCH '${word}'`);
    expect(recent("heron")).toEqual([]);
    expect(recent("kestrel")).toHaveLength(1);
    expect(await ids("heron")).toEqual([pages[0]]); // found in the word index all the same
  });
});

describe("body matches ranked with the recent index give bm25's order over every page", () => {
  // Bodies of one length (8 words), so that only how often a word is there tells pages apart.
  const body = (i: number) => {
    const words = [...Array(1 + (i % 3)).fill("alpha"), ...(i % 10 === 0 ? Array(1 + ((i / 10) % 3)).fill("osprey") : [])];
    return [...words, ...Array(8 - words.length).fill("filler")].join(" ");
  };
  beforeEach(async () => {
    await start(1000);
    manyPages(1100, (i) => `Note ${i}`, body);
  });

  test("newest matches all in the recent index: ranked there", async () => {
    const found = await ids("alpha");
    expect(found).toHaveLength(50);
    expect(found).toEqual(bm25Order('"alpha"').slice(0, 50));
    // Ranked there indeed: the best page, written into the recent index alone with the word
    // once, is no longer first.
    const best = env.core.sqlite.query<{ doc: number }, [string]>("SELECT doc_id AS doc FROM pages WHERE id = ?").get(found[0])!.doc;
    env.core.sqlite.run("DELETE FROM search_recent WHERE rowid = ?", [best]);
    env.core.sqlite.run(
      "INSERT INTO search_recent (rowid, title, body) VALUES (?, 'Note x', 'alpha filler filler filler filler filler filler filler')",
      [best],
    );
    expect((await ids("alpha ")).slice(0, 49)).toEqual(found.slice(1));
  });

  test(
    "newest matches older than the recent index: a word on half its pages or " + "more is left out of the ranking, with the same answer",
    async () => {
      // "osprey" is on one page in ten (110 pages), "alpha" on every page: the newest 1,000
      // matches reach below the recent index, whose pages say alpha weighs nothing.
      const found = await ids("alpha osprey");
      expect(found).toHaveLength(50);
      expect(found).toEqual(bm25Order('"alpha" AND "osprey"').slice(0, 50));
    },
  );

  test(
    "a word on fewer recent pages than the candidates: the recent index's matches are " +
      "never walked to find that out, and the answer is the same",
    async () => {
      // "osprey" is on about 100 of the recent index's 1,000 pages: its newest 1,000 matches with
      // "alpha" cannot all be there, which a count (stopped at 1,000) tells.
      const counter = startCountingStatements({ keepText: true });
      let found: string[];
      try {
        found = await ids("osprey alpha");
      } finally {
        counter.stop();
      }
      expect(found).toEqual(bm25Order('"osprey" AND "alpha"').slice(0, 50));
      expect(counter.texts.filter((text) => /FROM search_recent WHERE search_recent MATCH '[^']*' ORDER BY rowid DESC/.test(text))).toEqual(
        [],
      );
      expect(counter.texts.filter((text) => text.includes("count(*) FROM (SELECT 1 FROM search_recent")).length).toBeGreaterThan(0);
    },
  );

  test("the terms' counts are kept only until a write: once a word is on enough recent pages, the recent index ranks it", async () => {
    expect(await ids("osprey alpha")).toEqual(bm25Order('"osprey" AND "alpha"').slice(0, 50));
    manyPages(
      1000,
      (i) => `Bird ${i}`,
      () => "alpha osprey filler filler filler filler filler filler",
    );
    const counter = startCountingStatements({ keepText: true });
    try {
      expect(await ids("alpha osprey")).toHaveLength(50);
    } finally {
      counter.stop();
    }
    // A count kept from before the write (about 100) would have skipped it.
    expect(
      counter.texts.filter((text) => /FROM search_recent WHERE search_recent MATCH '[^']*' ORDER BY rowid DESC/.test(text)),
    ).toHaveLength(1);
  });
});

describe("title words", () => {
  test("titles are found by their words' stems and ranked by bm25 over titles, before body matches", async () => {
    await start(10_000);
    const [policies, policyShort, hoping, body, lookalike] = manyPages(
      5,
      (i) => ["Policies and procedures", "Policy", "Hoping for rain", "Weekly notes", "Observer rota"][i],
      (i) => (i === 3 ? "the policy and the server, we hope" : "x"),
    );
    expect(await ids("policy")).toEqual([policyShort, policies, body]);
    expect(await ids("hope")).toEqual([hoping, body]);
    expect((await ids("server"))[0]).toBe(body);
    expect(await ids("server")).toContain(lookalike); // a title fragment, after the word matches
  });

  test(
    "pages indexed before the added indexes existed are written into them from " +
      "search_backfill, newest first, and nothing else is re-indexed",
    async () => {
      await start(10_000);
      const pages = manyPages(
        3,
        (i) => `Gazebo ${i}`,
        () => "plain",
      );
      await env.core.commits.durable(); // the word index's segment is written at the commit
      const wordsBefore = env.core.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM search_words_data").get()!.n;
      // As the migration leaves a wiki: the two indexes empty, every page noted.
      for (const t of ["search_title_words", "search_recent"]) env.core.sqlite.run(`INSERT INTO ${t} (${t}) VALUES ('delete-all')`);
      env.core.sqlite.run("INSERT INTO search_backfill (doc_id) SELECT doc_id FROM pages");
      expect(await ids("gazebo")).toEqual(pages); // the search caught up first (equal titles: the older first, as bm25 ties go)
      expect(env.core.sqlite.query("SELECT * FROM search_backfill").all()).toEqual([]);
      expect(docIds("SELECT id FROM search_title_words_docsize ORDER BY id")).toHaveLength(3);
      expect(env.core.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM search_words_data").get()!.n).toBe(wordsBefore);
    },
  );
});

describe('the body indexes\' word buffer (docs/decisions.md, "The body indexes buffer 4 MB")', () => {
  const hashsize = (index: string) =>
    env.core.sqlite.query<{ v: number }, []>(`SELECT v FROM ${index}_config WHERE k = 'hashsize'`).get()?.v ?? null;

  test("is set by the first indexing batch, not at start, and a batch of pages is found as before", async () => {
    await start(10_000);
    catchUpSearchIndex(env.core);
    const before = [hashsize("search_words"), hashsize("search_recent")];
    const made = manyPages(
      600,
      (i) => `Runbook ${i}`,
      (i) => `restart the ${i % 2 ? "gateway" : "scheduler"} nightly`,
    );
    expect(before).toEqual([null, null]);
    expect([hashsize("search_words"), hashsize("search_recent")]).toEqual([4 << 20, 4 << 20]);
    const found = await ids("gateway");
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((id: string) => made.indexOf(id) % 2 === 1)).toBe(true);
  });
});
