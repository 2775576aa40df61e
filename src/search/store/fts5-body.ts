import { sql, type SQL } from "drizzle-orm";
import type { Core } from "../../core";
import { perInstance } from "../../platform/memo";
import { indexTotals } from "./fts5-records";
import { recentIndex } from "./fts5-recent";
import { firstInScope, type HitsRead } from "./fts5-scope";
import { TITLE_WEIGHT } from "./fts5-titles";
import { toWordQuery, type ParsedQuery, type Term } from "../query";

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
export function bodyMatches(
  core: Core,
  query: ParsedQuery,
  all: string,
  scope: SQL,
  wanted: number,
  skip: ReadonlySet<number>,
  read: HitsRead,
): number[] {
  const ranked = newestRanked(core, query, all).filter((id) => !skip.has(id));
  const found = firstInScope(core, ranked, scope, wanted, read);
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
 * Each is one statement. Step 1 ranks only when its newest matches are all in the recent
 * index: ranked first and thrown away when they were not (rarer words, two queries in three
 * of the bench's), it cost about a third of such a search; and it is tried only when every
 * term is on that many of its pages (counted, up to there, before).
 */
function newestRanked(core: Core, query: ParsedQuery, all: string): number[] {
  const recent = recentIndex(core).state();
  let counted: TermCounts | null = null;
  if (recent.usable) {
    if (recent.holdsAll) return ids(statements(core).rankedIn.search_recent.all(all));
    // Its newest RECENT_CANDIDATES matches cannot all be there when one term is on fewer of
    // its pages (every match holds every term): counted first, stopping there, which costs a
    // fifth of finding that out by walking the query's matches (rarer words, two queries in
    // three of the bench's), and the counts serve the weighing below.
    counted = countedTerms(core, query);
    if (counted.counts.every((n) => n >= RECENT_CANDIDATES)) {
      const ranked = ids(statements(core).recentWhenAllThere.all(all));
      if (ranked.length > 0) return ranked;
    }
  }
  const weighed = counted ? withoutWeightless(core, query, counted) : null;
  if (!weighed) return ids(statements(core).rankedIn.search_words.all(all));
  return ids(statements(core).rankedByWeighed.all(all, weighed));
}

/** The terms of a query without near spellings, and on how many recent pages each is, up to RECENT_CANDIDATES. */
interface TermCounts {
  terms: Term[];
  counts: number[];
}

function countedTerms(core: Core, query: ParsedQuery): TermCounts {
  const terms = query.must.filter((term) => !term.alternatives?.length);
  return { terms, counts: onAtMost(core, terms.map(termQuery), RECENT_CANDIDATES) };
}

const termQuery = (term: Term) => toWordQuery({ must: [term], not: [] })!;

const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id);

/** The statements of body ranking, prepared once per instance (their texts never change). */
const statements = perInstance((core: Core) => {
  const s = core.sqlite;
  // The newest matches in one word index, ranked there (best first: bm25 is lower for better).
  const rankedIn = (index: "search_words" | "search_recent") =>
    s.query<{ id: number }, [string]>(`
      SELECT id FROM (
        SELECT rowid AS id, bm25(${index}, ${TITLE_WEIGHT}, 1) AS score FROM ${index}
        WHERE ${index} MATCH ? ORDER BY rowid DESC LIMIT ${RECENT_CANDIDATES})
      ORDER BY score, id`);
  return {
    rankedIn: { search_words: rankedIn("search_words"), search_recent: rankedIn("search_recent") },
    /**
     * Ranked in the recent index only when the RECENT_CANDIDATES newest matches are all there
     * (else no row): finding them stops at the last one, a small part of ranking them; the
     * condition on their count is constant, so bm25 never runs when it fails.
     */
    recentWhenAllThere: s.query<{ id: number }, [string]>(`
      WITH newest(id) AS MATERIALIZED (
        SELECT rowid FROM search_recent WHERE search_recent MATCH ?1 ORDER BY rowid DESC LIMIT ${RECENT_CANDIDATES})
      SELECT id FROM (
        SELECT rowid AS id, bm25(search_recent, ${TITLE_WEIGHT}, 1) AS score FROM search_recent
        WHERE search_recent MATCH ?1 AND rowid >= (SELECT min(id) FROM newest) AND (SELECT count(*) FROM newest) = ${RECENT_CANDIDATES})
      ORDER BY score, id`),
    /**
     * The newest matches of every word (?1), ranked by the words that weigh (?2): those pages
     * holding them between the oldest and the newest match, of which the matches are kept
     * (+rowid: checked row by row, never handed to FTS5 as a thousand look-ups).
     */
    rankedByWeighed: s.query<{ id: number }, [string, string]>(`
      WITH newest(id) AS MATERIALIZED (
        SELECT rowid FROM search_words WHERE search_words MATCH ?1 ORDER BY rowid DESC LIMIT ${RECENT_CANDIDATES})
      SELECT rowid AS id FROM search_words
      WHERE search_words MATCH ?2 AND rowid BETWEEN (SELECT min(id) FROM newest) AND (SELECT max(id) FROM newest) AND +rowid IN newest
      ORDER BY bm25(search_words, ${TITLE_WEIGHT}, 1), rowid`),
  };
});

/**
 * On how many pages of the recent index each of these queries is, counted up to `atMost`, in one
 * statement (one text per number of queries): each count stops there, so a common word's walk
 * is cut short and a rare word's is short anyway. Counts are kept until the next write
 * (termCounts): first-time queries are new pairs of words already counted.
 */
function onAtMost(core: Core, queries: string[], atMost: number): number[] {
  const kept = termCounts(core)(core.stamp.current());
  const known = queries.map((q) => {
    const c = kept.get(q);
    // Below its cap a count is the term's own; at the cap, it answers only up to there.
    return c && (c.count < c.cap || atMost <= c.cap) ? Math.min(c.count, atMost) : null;
  });
  const missing = queries.filter((_, i) => known[i] === null);
  if (missing.length === 0) return known as number[];
  const columns = missing.map(
    (_, i) => `(SELECT count(*) FROM (SELECT 1 FROM search_recent WHERE search_recent MATCH ?${i + 2} LIMIT ?1)) AS n${i}`,
  );
  const row = core.sqlite.query<Record<string, number>, Array<string | number>>(`SELECT ${columns.join(", ")}`).get(atMost, ...missing)!;
  if (kept.size + missing.length > MAX_KEPT_COUNTS) kept.clear();
  missing.forEach((q, i) => kept.set(q, { count: row[`n${i}`], cap: atMost }));
  return known.map((n, i) => n ?? row[`n${missing.indexOf(queries[i])}`]);
}

/** Terms whose counts are kept at most (a few hundred KB). */
const MAX_KEPT_COUNTS = 10_000;

/**
 * Each term's count in the recent index (up to `cap`), for the data as it stood at `stamp`:
 * the counts go whenever it moves (any write, the index's catch-up included, or another
 * process's commit), so they are never older than the index they count.
 */
const termCounts = perInstance((_core: Core) => {
  const state = { stamp: "", counts: new Map<string, { count: number; cap: number }>() };
  return (stamp: string) => {
    if (stamp !== state.stamp) {
      state.stamp = stamp;
      state.counts = new Map();
    }
    return state.counts;
  };
});

/**
 * The query of the required terms that bm25 weighs, when some weigh nothing: a term on at least
 * WEIGHTLESS_SHARE of the recent index's pages is taken to be on as large a share of all pages.
 * Null when none may be left out (or all would be). Terms with alternatives (near spellings)
 * are several phrases to bm25, each weighed on its own, so they are always kept.
 */
function withoutWeightless(core: Core, query: ParsedQuery, counted: TermCounts): string | null {
  if (query.must.length < 2) return null;
  const { rows } = indexTotals(core, "search_recent");
  if (rows < MIN_SAMPLE) return null;
  // The terms without near spellings (those are several phrases to bm25, each weighed on its
  // own, so always kept), each counted up to RECENT_CANDIDATES already: a count below that is
  // the term's own; only those that reached it are counted on, up to the share.
  const { terms: plain, counts } = counted;
  if (plain.length === 0) return null;
  const share = Math.ceil(WEIGHTLESS_SHARE * rows);
  const further = plain.filter((_, i) => counts[i] >= RECENT_CANDIDATES && share > RECENT_CANDIDATES);
  const furtherCounts = onAtMost(core, further.map(termQuery), share);
  const common = plain.map((term, i) => {
    const at = further.indexOf(term);
    return (at >= 0 ? furtherCounts[at] : counts[i]) >= share;
  });
  const weightless = new Set(plain.filter((_, i) => common[i]));
  const kept: Term[] = query.must.filter((term) => !weightless.has(term));
  return kept.length === query.must.length || kept.length === 0 ? null : toWordQuery({ must: kept, not: [] });
}
