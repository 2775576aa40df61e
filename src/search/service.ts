import { sql, type SQL } from "drizzle-orm";
import { visiblePagesFilter } from "../access/pages";
import { principalParams } from "../access/principals";
import { requireReadableSpace } from "../access/spaces";
import type { Caller } from "../identity/caller";
import type { Core } from "../core";
import { keptTextsUntilWrite } from "../platform/db/kept-answers";
import { invalid } from "../platform/errors";
import { findSpaceByIdOrKey } from "../spaces/service";
import { fuzzyQuery, wordsWithStems } from "./fuzzy";
import { catchUpSearchIndex } from "./indexer";
import { parseQuery, toExclusionQuery, toFragmentQuery, toTitleWordQuery, toWordQuery, type ParsedQuery } from "./query";
import { snippetFor } from "./snippet";

export const SEARCH_LIMIT = 50;
export const MAX_QUERY_LENGTH = 500;
/** Titles weigh ten times the body in the ranking (bm25 column weights). */
const TITLE_WEIGHT = 10;
/**
 * How many matches are ranked at most: the most recently created pages that match, and as many
 * whose title matches. Ranking reads each match's column sizes, so a word found on 90,000 pages
 * cost 150 ms ranked in full; bounded, a query costs a few milliseconds however common its
 * words, and a query matching fewer pages than this is ranked exactly as before.
 */
const RECENT_CANDIDATES = 1000;
const TITLE_CANDIDATES = 500;
/** Fewer results than this, and near spellings of the words are tried too (fuzzy.ts). */
const FUZZY_BELOW = 5;

export interface SearchHit {
  pageId: string;
  spaceId: string;
  spaceKey: string;
  space: string;
  title: string;
  snippet: string;
}

interface Row {
  pageId: string;
  spaceId: string;
  spaceKey: string;
  spaceName: string;
  title: string;
  text: string;
}

/**
 * GET /api/search. Only published, live pages of active spaces that the caller may read are
 * considered, and that filter is part of the query, so it applies before the limit of 50.
 * Word matches come first, best first; when they are fewer than 50, titles containing the typed
 * fragments (the trigram index) fill the rest; when all these are fewer than FUZZY_BELOW, pages
 * with near spellings of the words follow.
 */
export function search(core: Core, caller: Caller, input: { q: string; spaceId?: string }): SearchHit[] {
  const q = input.q.trim();
  if (!q) throw invalid("q", "must not be empty");
  if (q.length > MAX_QUERY_LENGTH) throw invalid("q", `must be at most ${MAX_QUERY_LENGTH} characters`);
  // A space named by id or key (as everywhere a spaceId is taken), then always by its id.
  const spaceId = input.spaceId ? requireReadableSpace(core, caller, findSpaceByIdOrKey(core, input.spaceId)).id : null;
  catchUpSearchIndex(core);
  const parsed = parseQuery(q);
  const scope = sql.join(
    [
      sql`pages.status = 1`,
      sql`pages.deleted_at IS NULL`,
      sql`spaces.archived_at IS NULL`,
      visiblePagesFilter(core, caller),
      ...(spaceId ? [sql`pages.space_id = ${spaceId}`] : []),
    ],
    sql` AND `,
  );

  const hits: Row[] = wordHits(core, parsed, scope);
  const fragment = hits.length < SEARCH_LIMIT ? toFragmentQuery(parsed) : null;
  if (fragment) {
    const seen = new Set(hits.map((h) => h.pageId));
    // Excluded words apply to the whole page, so they are checked in the word index.
    const exclusion = toExclusionQuery(parsed);
    const fragmentScope = exclusion ? sql`${scope} AND pages.doc_id NOT IN (SELECT rowid FROM search_words WHERE search_words MATCH ${exclusion})` : scope;
    for (const row of run(core, sql`search_titles`, fragment, fragmentScope, sql`length(pages.title)`, SEARCH_LIMIT + hits.length)) {
      if (hits.length >= SEARCH_LIMIT) break;
      if (!seen.has(row.pageId)) hits.push(row);
    }
  }
  // Near spellings ("biling" → billing) rank below every match of the words as typed, and go
  // through the same ranking and the same scope: only the words looked for differ.
  const exact = hits.length;
  let fuzzyWords = new Set<string>();
  const fuzzy = exact < FUZZY_BELOW ? fuzzyQuery(core, parsed) : null;
  if (fuzzy) {
    const seen = new Set(hits.map((h) => h.pageId));
    for (const row of wordHits(core, fuzzy.query, scope)) if (hits.length < SEARCH_LIMIT && !seen.has(row.pageId)) hits.push(row);
    fuzzyWords = wordsWithStems(hits.slice(exact).map((h) => h.text), fuzzy.stems);
  }
  return hits.map((h, i) => ({
    pageId: h.pageId,
    spaceId: h.spaceId,
    spaceKey: h.spaceKey,
    space: h.spaceName,
    title: h.title,
    snippet: snippetFor(h.text, parsed.must, i >= exact ? fuzzyWords : []),
  }));
}

/**
 * The best word matches: the RECENT_CANDIDATES newest matching pages and the TITLE_CANDIDATES
 * newest whose title matches (a page named for the query is never crowded out by pages that
 * merely mention it), each within the caller's scope, ranked together by bm25. A title-only
 * score is the title part of the full one, so such a page ranks no higher than it should.
 * Only the 50 answered read their text (for the snippet).
 */
function wordHits(core: Core, parsed: ParsedQuery, scope: SQL): Row[] {
  const all = toWordQuery(parsed);
  const titles = toTitleWordQuery(parsed);
  if (!all || !titles) return [];
  const candidates = (match: string, limit: number) => sql`
    SELECT doc_id, score FROM (
      SELECT search_words.rowid AS doc_id, bm25(search_words, ${TITLE_WEIGHT}, 1) AS score
      FROM search_words JOIN pages ON pages.doc_id = search_words.rowid JOIN spaces ON spaces.id = pages.space_id
      WHERE search_words MATCH ${match} AND ${scope}
      ORDER BY search_words.rowid DESC LIMIT ${limit})`;
  return guarded(core, () =>
    core.db.all<Row>(sql`
      WITH best AS (
        SELECT doc_id, min(score) AS score FROM (${candidates(all, RECENT_CANDIDATES)} UNION ALL ${candidates(titles, TITLE_CANDIDATES)})
        GROUP BY doc_id ORDER BY score LIMIT ${SEARCH_LIMIT})
      SELECT pages.id AS pageId, pages.space_id AS spaceId, spaces.key AS spaceKey, spaces.name AS spaceName,
             pages.title AS title, pages.plain_text AS text
      FROM best JOIN pages ON pages.doc_id = best.doc_id JOIN spaces ON spaces.id = pages.space_id
      ORDER BY best.score`),
  );
}

/** Every term is quoted, so FTS5 should accept any query; if it still refuses one, the person gets "no results", never a 500. */
function guarded(core: Core, query: () => Row[]): Row[] {
  try {
    return query();
  } catch (err) {
    core.log.warn("search query refused by FTS5", { error: (err as Error).message });
    return [];
  }
}

/**
 * Answers already given, as JSON text, until the next write (platform/db/kept-answers.ts): the
 * same words asked again by someone who sees the same pages (the same account; anonymous
 * callers share one) cost a look-up. Any change to pages, grants or settings empties it.
 */
const keptAnswers = keptTextsUntilWrite("search", 4 * 1024 * 1024);

/** GET /api/search as JSON text (the route sends it as it is). */
export function searchJson(core: Core, caller: Caller, input: { q: string; spaceId?: string }): string {
  const p = principalParams(caller);
  const key = JSON.stringify([p.uid, p.builtins, input.spaceId ?? null, input.q]);
  return keptAnswers(core.stamp, key, () => JSON.stringify(search(core, caller, input)));
}

function run(core: Core, index: SQL, match: string, scope: SQL, order: SQL, limit: number): Row[] {
  return guarded(core, () =>
    core.db.all<Row>(sql`
      SELECT pages.id AS pageId, pages.space_id AS spaceId, spaces.key AS spaceKey, spaces.name AS spaceName,
             pages.title AS title, pages.plain_text AS text
      FROM ${index}
      JOIN pages ON pages.doc_id = ${index}.rowid
      JOIN spaces ON spaces.id = pages.space_id
      WHERE ${index} MATCH ${match} AND ${scope}
      ORDER BY ${order}
      LIMIT ${limit}`),
  );
}
