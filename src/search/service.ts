import { visiblePagesFilter } from "../access/pages";
import { principalParams } from "../access/principals";
import { requireReadableSpace } from "../access/spaces";
import type { Caller } from "../identity/caller";
import type { Core } from "../core";
import { keptTextsUntilWrite } from "../platform/db/kept-answers";
import { invalid } from "../platform/errors";
import { findSpaceByIdOrKey } from "../spaces/service";
import { fuzzyQuery, spelledAs, wordsWithStems } from "./fuzzy";
import { catchUpSearchIndex, searchIndex } from "./indexer";
import { parseQuery } from "./query";
import type { SearchRow } from "./search-index";
import { snippetsFor } from "./snippet";

export const SEARCH_LIMIT = 50;
export const MAX_QUERY_LENGTH = 500;
/** Fewer results than this, and near spellings of the words are tried too (fuzzy.ts). */
const FUZZY_BELOW = 5;

export interface SearchHit {
  pageId: string;
  spaceId: string;
  spaceKey: string;
  space: string;
  title: string;
  snippet: string;
  /** A near-spelling match only: the query as this page matched it ("kubernets" → "kubernetes"). */
  spelledAs?: string;
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
  const index = searchIndex(core);
  catchUpSearchIndex(core);
  const parsed = parseQuery(q);
  const scope = { readable: visiblePagesFilter(core, caller), spaceId };

  const hits: SearchRow[] = index.words(parsed, scope, SEARCH_LIMIT);
  if (hits.length < SEARCH_LIMIT) {
    const seen = new Set(hits.map((h) => h.pageId));
    for (const row of index.titleFragments(parsed, scope, SEARCH_LIMIT + hits.length)) {
      if (hits.length >= SEARCH_LIMIT) break;
      if (!seen.has(row.pageId)) hits.push(row);
    }
  }
  // Near spellings ("biling" → billing) rank below every match of the words as typed, and go
  // through the same ranking and the same scope: only the words looked for differ.
  const exact = hits.length;
  let fuzzyWords = new Set<string>();
  let stemOf = new Map<string, string>();
  const fuzzy = exact < FUZZY_BELOW ? fuzzyQuery(core, parsed) : null;
  if (fuzzy) {
    const seen = new Set(hits.map((h) => h.pageId));
    for (const row of index.words(fuzzy.query, scope, SEARCH_LIMIT))
      if (hits.length < SEARCH_LIMIT && !seen.has(row.pageId)) hits.push(row);
    // Titles too: a page may have the word only in its title (spelledAs, the palette's mark).
    fuzzyWords = wordsWithStems(
      index,
      hits.slice(exact).map((h) => `${h.title} ${h.text}`),
      fuzzy.stems,
    );
    const found = [...fuzzyWords];
    const theirStems = index.termsOf(found);
    stemOf = new Map(found.map((w, i) => [w, theirStems[i] ?? ""]));
  }
  const exactSnippet = snippetsFor(parsed.must);
  const fuzzySnippet = fuzzy ? snippetsFor(parsed.must, fuzzyWords) : exactSnippet;
  return hits.map((h, i) => ({
    pageId: h.pageId,
    spaceId: h.spaceId,
    spaceKey: h.spaceKey,
    space: h.spaceName,
    title: h.title,
    snippet: (i >= exact ? fuzzySnippet : exactSnippet)(h.text),
    ...(fuzzy && i >= exact ? { spelledAs: spelledAs(parsed, fuzzy.stemsByTerm, `${h.title} ${h.text}`, stemOf) } : {}),
  }));
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
