import { sql, type SQL } from "drizzle-orm";
import type { Core } from "../../core";
import { firstInScope, type HitsRead } from "./fts5-scope";

/**
 * Part of the FTS5 index (fts5.ts): the pages whose title holds every word of a query, found and
 * ranked by bm25 in search_title_words, a word index of titles alone (migration
 * 'search_indexes'; docs/decisions.md, "Title matches ranked apart"). Before it they were looked
 * for in the word index's title column, which walks every page holding the word, title or not
 * (20 ms for "this" at 100,000 pages), or through the trigram index of titles and a count of each
 * candidate's words in JavaScript; a word's pages among titles are few, so here bm25 weighs each
 * word by its rarity among titles and ranks by how often the title holds it against the title's
 * length.
 */

/** Titles weigh ten times the body in the ranking of body matches (bm25's column weights, fts5-body.ts). */
export const TITLE_WEIGHT = 10;

export interface TitleMatches {
  /** The best `wanted` in the caller's scope, best first (doc ids). */
  ids: number[];
  /** Every page found by its title, in scope or not: body matches leave them out. */
  found: Set<number>;
}

/**
 * The best `wanted` pages in the caller's scope whose title holds every required word, among
 * the `max` newest such pages. `words`: the required words as a word-index query (toWordQuery
 * without exclusions); `exclusion`: excluded words, which apply to the whole page, so they are
 * checked in the word index. Ranked without the scope, then checked (fts5-scope.ts); when too
 * few of them are in scope, the newest in scope are ranked instead.
 */
export function titleMatches(
  core: Core,
  words: string,
  exclusion: string | null,
  scope: SQL,
  max: number,
  wanted: number,
  read: HitsRead,
): TitleMatches {
  const excluded = exclusion
    ? sql`AND search_title_words.rowid NOT IN (SELECT rowid FROM search_words WHERE search_words MATCH ${exclusion})`
    : sql``;
  // Written as text, not through drizzle: turning the query into text each time cost a tenth
  // of the ranking.
  const ranked = core.sqlite
    .query<{ id: number }, Array<string | number>>(
      `SELECT id FROM (
        SELECT rowid AS id, bm25(search_title_words) AS score FROM search_title_words
        WHERE ` +
        `search_title_words MATCH ?1 ` +
        `${exclusion ? "AND rowid NOT IN (SELECT rowid FROM search_words WHERE search_words MATCH ?3)" : ""}
        ORDER BY ` +
        `rowid DESC LIMIT ?2)
      ORDER BY score, id`,
    )
    .all(...(exclusion ? [words, max, exclusion] : [words, max]))
    .map((r) => r.id);
  const found = new Set(ranked);
  const first = firstInScope(core, ranked, scope, wanted, read);
  if (first.ids.length >= wanted || !first.outOfScope) return { ids: first.ids, found };
  const scoped = core.db
    .all<{ id: number }>(sql`
      SELECT id FROM (
        SELECT search_title_words.rowid AS id, bm25(search_title_words) AS score
        FROM search_title_words JOIN pages ON pages.doc_id = search_title_words.rowid JOIN spaces ON spaces.id = pages.space_id
        WHERE search_title_words MATCH ${words} ${excluded} AND ${scope}
        ORDER BY search_title_words.rowid DESC LIMIT ${max})
      ORDER BY score, id`)
    .map((r) => r.id);
  for (const id of scoped) found.add(id);
  return { ids: scoped.slice(0, wanted), found };
}
