import { sql, type SQL } from "drizzle-orm";
import type { Core } from "../core";
import { listOf, listParam } from "../platform/db/lists";
import { toExclusionQuery, toFragmentQuery, toTitleWordQuery, toWordQuery, type ParsedQuery } from "./query";
import type { SearchIndex, SearchIndexHooks, SearchRow, SearchScope } from "./search-index";
import { segmentCjk } from "./segment";
import { titleMatches, TITLE_WEIGHT } from "./fts5-titles";
import { stemEach } from "./stemmer";

/**
 * The search index in SQLite FTS5 (migration 'search'): search_words, a porter word index of
 * title and body; search_titles, a trigram index of titles (fragments such as "onfig"); and
 * search_dirty, the pages noted by triggers on `pages` in the transaction of each change. Both
 * indexes are contentless: texts are read from pages. Every SQL statement of search is here,
 * in fts5-titles.ts (title matches) or in stemmer.ts (FTS5's tokenizer on a private database).
 */

/**
 * How many matches are ranked at most: the newest that match (in the caller's scope), and the
 * newest whose title holds every word. bm25 reads each match's column sizes, so a word found on
 * 90,000 pages cost 150 ms ranked in full; bounded, a query matching fewer pages than this is
 * ranked exactly.
 */
const RECENT_CANDIDATES = 1000;
const TITLE_CANDIDATES = 500;
/** Ranked matches checked against the caller's scope at a time. */
const SCOPE_ROUND = 100;
/**
 * Every page marked for indexing: run by a restore in its swap's transaction, after it emptied
 * the FTS5 tables (their shadow tables cannot be copied: platform/db/replace-data.ts).
 */
export const MARK_EVERY_PAGE = "INSERT OR IGNORE INTO search_dirty (doc_id) SELECT doc_id FROM pages";

/** Pages re-indexed per transaction when catching up (a bulk import marks thousands). */
const BATCH = 500;

export function createFts5Index(core: Core, hooks: SearchIndexHooks): SearchIndex {
  const s = core.sqlite;
  const pending = s.query<{ one: number }, []>("SELECT 1 AS one FROM search_dirty LIMIT 1");
  const dirty = s.query<{ docId: number; title: string | null; text: string | null }, [number]>(
    "SELECT d.doc_id AS docId, p.title AS title, p.plain_text AS text FROM search_dirty d LEFT JOIN pages p ON p.doc_id = d.doc_id LIMIT ?",
  );
  const mark = s.query<never, [string]>(`INSERT OR IGNORE INTO search_dirty (doc_id) ${listParam("?")}`);
  const dropWords = s.query("DELETE FROM search_words WHERE rowid = ?");
  const dropTitle = s.query("DELETE FROM search_titles WHERE rowid = ?");
  const addWords = s.query("INSERT INTO search_words (rowid, title, body) VALUES (?, ?, ?)");
  const addTitle = s.query("INSERT INTO search_titles (rowid, title) VALUES (?, ?)");
  const done = s.query("DELETE FROM search_dirty WHERE doc_id = ?");
  let vocab: ReturnType<typeof vocabularyStatements> | null = null;

  /** Re-indexes up to `size` noted pages; answers whether any were left after them. */
  const indexBatch = (size: number): boolean =>
    core.tx(() => {
      const rows = dirty.all(size);
      for (const row of rows) {
        dropWords.run(row.docId);
        dropTitle.run(row.docId);
        done.run(row.docId);
        hooks.indexed(row.docId);
        if (row.title === null) continue; // the page is gone (purged or its space deleted)
        addWords.run(row.docId, segmentCjk(row.title), segmentCjk(row.text ?? ""));
        addTitle.run(row.docId, row.title);
      }
      return rows.length === size;
    });

  return {
    markDirty(docIds) {
      if (docIds.length) mark.run(JSON.stringify(docIds));
    },
    catchUp(maxPages = Number.POSITIVE_INFINITY) {
      if (pending.get() === null) return true;
      for (let left = maxPages; left > 0; left -= BATCH) {
        if (!indexBatch(Math.min(BATCH, left))) return true;
      }
      return pending.get() === null;
    },
    words: (query, scope, limit) => wordMatches(core, query, scopeSql(scope), limit),
    titleFragments(query, given, limit) {
      const scope = scopeSql(given);
      const fragment = toFragmentQuery(query);
      if (!fragment) return [];
      // Excluded words apply to the whole page, so they are checked in the word index.
      const exclusion = toExclusionQuery(query);
      const where = exclusion ? sql`${scope} AND pages.doc_id NOT IN (SELECT rowid FROM search_words WHERE search_words MATCH ${exclusion})` : scope;
      return guarded(core, () =>
        core.db.all<SearchRow>(sql`
          SELECT ${HIT_COLUMNS} FROM search_titles
          JOIN pages ON pages.doc_id = search_titles.rowid JOIN spaces ON spaces.id = pages.space_id
          WHERE search_titles MATCH ${fragment} AND ${where}
          ORDER BY length(pages.title) LIMIT ${limit}`),
      );
    },
    termsOf: stemEach,
    allTerms: () => (vocab ??= vocabularyStatements(core)).all.all(),
    pageTexts: (docIds) => (vocab ??= vocabularyStatements(core)).pages.all(JSON.stringify(docIds)),
    outsideVersion: () => (vocab ??= vocabularyStatements(core)).version.get()!.data_version,
  };
}

/** Published, live pages of active spaces that the caller may read (in the one space asked for). */
function scopeSql(scope: SearchScope): SQL {
  const conditions = [sql`pages.status = 1`, sql`pages.deleted_at IS NULL`, sql`spaces.archived_at IS NULL`, scope.readable];
  if (scope.spaceId) conditions.push(sql`pages.space_id = ${scope.spaceId}`);
  return sql.join(conditions, sql` AND `);
}

const HIT_COLUMNS = sql.raw(
  "pages.id AS pageId, pages.space_id AS spaceId, spaces.key AS spaceKey, spaces.name AS spaceName, pages.title AS title, pages.plain_text AS text",
);

/**
 * The vocabulary (vocabulary.ts) reads an fts5vocab table over search_words, created in the
 * connection's temp schema (no migration: it stores nothing, it is a view of the index).
 */
function vocabularyStatements(core: Core) {
  core.sqlite.run("CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocab USING fts5vocab(main, search_words, row)");
  return {
    all: core.sqlite.query<{ term: string; doc: number }, []>("SELECT term, doc FROM temp.search_vocab"),
    version: core.sqlite.query<{ data_version: number }, []>("PRAGMA data_version"),
    pages: core.sqlite.query<{ title: string; text: string }, [string]>(`SELECT title, coalesce(plain_text, '') AS text FROM pages WHERE doc_id IN (${listParam("?")})`),
  };
}

/**
 * The best word matches, best first:
 *   1. pages whose title holds every word (the TITLE_CANDIDATES newest in scope), ranked by
 *      bm25's formula over their titles (fts5-titles.ts);
 *   2. then, if fewer than `limit`, the RECENT_CANDIDATES newest matches in scope ranked by bm25,
 *      titles weighing TITLE_WEIGHT times the body (bodyMatches).
 * Until issue 13 both were ranked together in SQL, title matches by bm25 over titles alone,
 * and they came first all the same: a word's weight (its rarity) among titles is higher than
 * among pages, and one occurrence in a title counts as ten. Ranked apart, the answers are the
 * same (the same 50 in the same order for 600 first-time queries at 100,000 pages), and a
 * query whose words are in 50 titles needs no bm25 at all, which counts, for each word, every
 * page holding it before it ranks any (a whole posting list: about 3 ms for a word on 90,000
 * pages).
 */
function wordMatches(core: Core, query: ParsedQuery, scope: SQL, limit: number): SearchRow[] {
  const all = toWordQuery(query);
  const titles = toTitleWordQuery(query);
  if (!all || !titles) return [];
  return guarded(core, () => {
    const titled = titleMatches(core, query, titles, scope, TITLE_CANDIDATES);
    const ids = titled.slice(0, limit).map((r) => r.docId);
    if (ids.length < limit) ids.push(...bodyMatches(core, all, scope, limit - ids.length, new Set(titled.map((r) => r.docId))));
    return hitsInOrder(core, ids);
  });
}

/**
 * The best `wanted` matches by bm25 that are not among `skip`, among the RECENT_CANDIDATES newest
 * matches in the caller's scope. Ranked first without the scope (reading each page's row for
 * it costs more than bm25), then checked in order of rank, SCOPE_ROUND at a time: when the
 * newest matches are all in scope, as for most callers, that is the same. When too few of them
 * are, the newest in scope are ranked instead, so pages the caller cannot read never take the
 * place of pages it can (the scope applies before the limit).
 */
function bodyMatches(core: Core, all: string, scope: SQL, wanted: number, skip: ReadonlySet<number>): number[] {
  const ranked = core.db
    .all<{ docId: number }>(sql`
      SELECT doc_id AS docId FROM (
        SELECT rowid AS doc_id, bm25(search_words, ${TITLE_WEIGHT}, 1) AS score FROM search_words
        WHERE search_words MATCH ${all} ORDER BY rowid DESC LIMIT ${RECENT_CANDIDATES})
      ORDER BY score, doc_id`)
    .map((r) => r.docId)
    .filter((id) => !skip.has(id));
  const out: number[] = [];
  let outOfScope = 0;
  for (let i = 0; i < ranked.length && out.length < wanted; i += SCOPE_ROUND) {
    const round = ranked.slice(i, i + SCOPE_ROUND);
    const inScope = new Set(
      core.db
        .all<{ docId: number }>(sql`
          SELECT pages.doc_id AS docId FROM pages JOIN spaces ON spaces.id = pages.space_id
          WHERE pages.doc_id IN (${listOf(round)}) AND ${scope}`)
        .map((r) => r.docId),
    );
    outOfScope += round.length - inScope.size;
    for (const id of round) if (inScope.has(id) && out.length < wanted) out.push(id);
  }
  if (out.length >= wanted || outOfScope === 0) return out;
  return core.db
    .all<{ docId: number }>(sql`
      SELECT doc_id AS docId FROM (
        SELECT search_words.rowid AS doc_id, bm25(search_words, ${TITLE_WEIGHT}, 1) AS score
        FROM search_words JOIN pages ON pages.doc_id = search_words.rowid JOIN spaces ON spaces.id = pages.space_id
        WHERE search_words MATCH ${all} AND ${scope}
        ORDER BY search_words.rowid DESC LIMIT ${RECENT_CANDIDATES})
      ORDER BY score, doc_id LIMIT ${wanted + skip.size}`)
    .map((r) => r.docId)
    .filter((id) => !skip.has(id))
    .slice(0, wanted);
}

/** The pages of these doc ids, with what a hit shows, in the order given (only these read their text). */
function hitsInOrder(core: Core, ids: number[]): SearchRow[] {
  if (ids.length === 0) return [];
  const rows = core.db.all<SearchRow & { docId: number }>(sql`
    SELECT pages.doc_id AS docId, ${HIT_COLUMNS}
    FROM pages JOIN spaces ON spaces.id = pages.space_id WHERE pages.doc_id IN (${listOf(ids)})`);
  const byId = new Map(rows.map(({ docId, ...row }) => [docId, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Every term is quoted, so FTS5 should accept any query; if it still refuses one, the person gets "no results", never a 500. */
function guarded(core: Core, query: () => SearchRow[]): SearchRow[] {
  try {
    return query();
  } catch (err) {
    core.log.warn("search query refused by FTS5", { error: (err as Error).message });
    return [];
  }
}
