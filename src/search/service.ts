import { eq, sql, type SQL } from "drizzle-orm";
import { visiblePagesFilter } from "../access/pages";
import { requireReadableSpace } from "../access/spaces";
import type { Caller } from "../auth/caller";
import type { Core } from "../core";
import { invalid } from "../platform/errors";
import { spaces } from "../spaces/tables";
import { parseQuery, toExclusionQuery, toFragmentQuery, toWordQuery } from "./query";
import { snippetFor } from "./snippet";

export const SEARCH_LIMIT = 50;
export const MAX_QUERY_LENGTH = 500;
/** Titles weigh ten times the body in the ranking (bm25 column weights). */
const TITLE_WEIGHT = 10;

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
 * fragments (the trigram index) fill the rest.
 */
export function search(core: Core, caller: Caller, input: { q: string; spaceId?: string }): SearchHit[] {
  const q = input.q.trim();
  if (!q) throw invalid("q", "must not be empty");
  if (q.length > MAX_QUERY_LENGTH) throw invalid("q", `must be at most ${MAX_QUERY_LENGTH} characters`);
  if (input.spaceId) {
    requireReadableSpace(core, caller, core.db.select().from(spaces).where(eq(spaces.id, input.spaceId)).get());
  }
  const parsed = parseQuery(q);
  const scope = sql.join(
    [
      sql`pages.status = 1`,
      sql`pages.deleted_at IS NULL`,
      sql`spaces.archived_at IS NULL`,
      visiblePagesFilter(core, caller),
      ...(input.spaceId ? [sql`pages.space_id = ${input.spaceId}`] : []),
    ],
    sql` AND `,
  );

  const hits: Row[] = [];
  const word = toWordQuery(parsed);
  if (word) hits.push(...run(core, sql`search_words`, word, scope, sql`bm25(search_words, ${TITLE_WEIGHT}, 1)`, SEARCH_LIMIT));
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
  return hits.map((h) => ({
    pageId: h.pageId,
    spaceId: h.spaceId,
    spaceKey: h.spaceKey,
    space: h.spaceName,
    title: h.title,
    snippet: snippetFor(h.text, parsed.must),
  }));
}

function run(core: Core, index: SQL, match: string, scope: SQL, order: SQL, limit: number): Row[] {
  try {
    return core.db.all<Row>(sql`
      SELECT pages.id AS pageId, pages.space_id AS spaceId, spaces.key AS spaceKey, spaces.name AS spaceName,
             pages.title AS title, pages.plain_text AS text
      FROM ${index}
      JOIN pages ON pages.doc_id = ${index}.rowid
      JOIN spaces ON spaces.id = pages.space_id
      WHERE ${index} MATCH ${match} AND ${scope}
      ORDER BY ${order}
      LIMIT ${limit}`);
  } catch (err) {
    // Every term is quoted, so this should not happen; if FTS5 still refuses the query, the
    // person gets "no results", never a 500.
    core.log.warn("search query refused by FTS5", { error: (err as Error).message });
    return [];
  }
}
