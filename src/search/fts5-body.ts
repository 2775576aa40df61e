import { sql, type SQL } from "drizzle-orm";
import type { Core } from "../core";
import { indexTotals } from "./fts5-records";
import { recentIndex } from "./fts5-recent";
import { firstInScope } from "./fts5-scope";
import { TITLE_WEIGHT } from "./fts5-titles";
import { toWordQuery, type ParsedQuery, type Term } from "./query";

/**
 * Part of the FTS5 index (fts5.ts): the word matches of a query ranked by bm25, titles weighing
 * TITLE_WEIGHT times the body, among its RECENT_CANDIDATES newest matches.
 */

/**
 * How many matches are ranked at most: the newest that match. bm25 reads each match's column
 * sizes, so a word found on 90,000 pages cost 150 ms ranked in full; bounded, a query matching
 * fewer pages than this is ranked exactly.
 */
const RECENT_CANDIDATES = 1000;
/**
 * FTS5's bm25 gives a word on half the pages or more no weight (its IDF, ln((N - n + 0.5) /
 * (n + 0.5)), is clamped to 1e-6), so such a word may be left out of the ranking (ties aside).
 */
const WEIGHTLESS_SHARE = 0.5;
/** Fewer pages than this in the recent index, and a word's share there says too little. */
const MIN_SAMPLE = 1000;

/**
 * The best `wanted` matches by bm25 that are not among `skip`, among the RECENT_CANDIDATES newest
 * matches in the caller's scope: ranked without the scope, then checked (fts5-scope.ts); when
 * too few of them are in scope, the newest in scope are ranked instead.
 */
export function bodyMatches(core: Core, query: ParsedQuery, all: string, scope: SQL, wanted: number, skip: ReadonlySet<number>): number[] {
  const ranked = newestRanked(core, query, all).filter((id) => !skip.has(id));
  const found = firstInScope(core, ranked, scope, wanted);
  if (found.ids.length >= wanted || !found.outOfScope) return found.ids;
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

/**
 * The RECENT_CANDIDATES newest matches, best first. bm25 counts, for each word, every page
 * holding it (fts5-recent.ts says why that costs), so, cheapest first:
 *   1. in the recent index, when the newest matches are all there (common words) or it holds
 *      every page: rarity is counted among the newest pages;
 *   2. in the word index, leaving out of the ranking the words on half the pages or more (as
 *      the recent index counts them), to which bm25 gives no weight: only the rarer words'
 *      pages are counted;
 *   3. in the word index, every word ranked (when none may be left out).
 */
function newestRanked(core: Core, query: ParsedQuery, all: string): number[] {
  const recent = recentIndex(core).state();
  if (recent.usable) {
    const ranked = rankedIn(core, "search_recent", all);
    if (ranked.length === RECENT_CANDIDATES || recent.holdsAll) return ranked;
  }
  const weighed = recent.usable ? withoutWeightless(core, query) : null;
  if (!weighed) return rankedIn(core, "search_words", all);
  const newest = core.sqlite
    .query<{ id: number }, [string]>(`SELECT rowid AS id FROM search_words WHERE search_words MATCH ? ORDER BY rowid DESC LIMIT ${RECENT_CANDIDATES}`)
    .all(all)
    .map((r) => r.id);
  if (newest.length === 0) return [];
  const wanted = new Set(newest);
  // The same pages ranked by the words that weigh: those holding them between the oldest and
  // the newest match, of which the matches are kept.
  return core.sqlite
    .query<{ id: number; score: number }, [string, number, number]>(
      `SELECT rowid AS id, bm25(search_words, ${TITLE_WEIGHT}, 1) AS score FROM search_words WHERE search_words MATCH ? AND rowid BETWEEN ? AND ?`,
    )
    .all(weighed, newest[newest.length - 1], newest[0])
    .filter((r) => wanted.has(r.id))
    .sort((a, b) => a.score - b.score || a.id - b.id)
    .map((r) => r.id);
}

/** The newest matches in one word index, ranked there (best first: bm25 is lower for better). */
function rankedIn(core: Core, index: "search_words" | "search_recent", all: string): number[] {
  return core.sqlite
    .query<{ id: number }, [string]>(`
      SELECT id FROM (
        SELECT rowid AS id, bm25(${index}, ${TITLE_WEIGHT}, 1) AS score FROM ${index}
        WHERE ${index} MATCH ? ORDER BY rowid DESC LIMIT ${RECENT_CANDIDATES})
      ORDER BY score, id`)
    .all(all)
    .map((r) => r.id);
}

/**
 * The query of the required terms that bm25 weighs, when some weigh nothing: a term on at least
 * WEIGHTLESS_SHARE of the recent index's pages is taken to be on as large a share of all pages.
 * Null when none may be left out (or all would be). Terms with alternatives (near spellings)
 * are several phrases to bm25, each weighed on its own, so they are always kept.
 */
function withoutWeightless(core: Core, query: ParsedQuery): string | null {
  if (query.must.length < 2) return null;
  const { rows } = indexTotals(core, "search_recent");
  if (rows < MIN_SAMPLE) return null;
  const count = core.sqlite.query<{ n: number }, [string]>("SELECT count(*) AS n FROM search_recent WHERE search_recent MATCH ?");
  const kept: Term[] = query.must.filter((term) => term.alternatives?.length || count.get(toWordQuery({ must: [term], not: [] })!)!.n < WEIGHTLESS_SHARE * rows);
  return kept.length === query.must.length || kept.length === 0 ? null : toWordQuery({ must: kept, not: [] });
}
