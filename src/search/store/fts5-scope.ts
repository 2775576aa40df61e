import type { SQLQueryBindings } from "bun:sqlite";
import type { SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import type { Core } from "../../core";
import { listParam } from "../../platform/db/lists";
import type { SearchRow } from "../search-index";

/**
 * Ranked matches checked against the caller's scope at a time, after a first round of just the
 * number wanted (enough when all are in scope, as for most callers: reading a page's row is
 * most of the check, and a round of 100 read twice the rows a search of 50 needs).
 */
const SCOPE_ROUND = 100;

const dialect = new SQLiteSyncDialect();

/**
 * The scope's condition as SQL text and its values, turned into text once per search (the same
 * SQL object serves its title and body matches, every round): drizzle's turning a caller's
 * access condition into text, each round again, cost about as much as the check it made.
 */
type ScopeText = { text: string; params: SQLQueryBindings[] };
const compiled = new WeakMap<SQL, ScopeText>();

function scopeText(scope: SQL): ScopeText {
  let found = compiled.get(scope);
  if (!found) {
    const q = dialect.sqlToQuery(scope);
    found = { text: q.sql, params: q.params as SQLQueryBindings[] };
    compiled.set(scope, found);
  }
  return found;
}

/** What a hit shows, as the columns of a statement over `pages` joined with `spaces`. */
export const HIT_COLUMNS_TEXT =
  "pages.id AS pageId, pages.space_id AS spaceId, spaces.key AS spaceKey, spaces.name " +
  "AS spaceName, pages.title AS title, pages.plain_text AS text";

/** Hits already read, by doc id: the first round of a scope check reads them (hitsInOrder in fts5.ts reads the others). */
export type HitsRead = Map<number, SearchRow>;

/**
 * The first `wanted` of these ranked pages (doc ids, best first) that are in the caller's
 * scope, checked `wanted`, then SCOPE_ROUND, at a time, and whether any checked were not. Matches are ranked
 * without the scope (reading each page's row for it costs more than ranking), then checked in
 * order of rank: when they are all in scope, as for most callers, that is the same as ranking
 * in scope. When some are not and too few are left, the caller ranks within the scope instead,
 * so that pages the caller cannot read never take the place of pages it can.
 *
 * The first round reads what a hit shows of the pages in scope (into `read`), in the same
 * statement as the check: when all are in scope, as for most callers, they are the hits, and
 * reading each page's row a second time for them (a look-up of the row, then its text) cost
 * about as much as the check. SQLite reads a row's text only for the rows the condition keeps.
 * Later rounds only check (their pages are hits only when earlier ones were not in scope).
 */
export function firstInScope(
  core: Core,
  ranked: readonly number[],
  scope: SQL,
  wanted: number,
  read: HitsRead,
): { ids: number[]; outOfScope: boolean } {
  const ids: number[] = [];
  let outOfScope = false;
  const { text, params } = scopeText(scope);
  const where = `FROM pages JOIN spaces ON spaces.id = pages.space_id WHERE pages.doc_id IN (${listParam("?")}) AND ${text}`;
  for (let from = 0; from < ranked.length && ids.length < wanted; ) {
    const to = from + (from === 0 ? wanted : SCOPE_ROUND);
    const round = ranked.slice(from, to);
    let inScope: Set<number>;
    if (from === 0) {
      const rows = core.sqlite
        .query<SearchRow & { docId: number }, SQLQueryBindings[]>(`SELECT pages.doc_id AS docId, ${HIT_COLUMNS_TEXT} ${where}`)
        .all(JSON.stringify(round), ...params);
      for (const { docId, ...row } of rows) read.set(docId, row);
      inScope = new Set(rows.map((r) => r.docId));
    } else {
      const check = core.sqlite.query<{ docId: number }, SQLQueryBindings[]>(`SELECT pages.doc_id AS docId ${where}`);
      inScope = new Set(check.all(JSON.stringify(round), ...params).map((r) => r.docId));
    }
    from = to;
    if (inScope.size < round.length) outOfScope = true;
    for (const id of round) if (inScope.has(id) && ids.length < wanted) ids.push(id);
  }
  return { ids, outOfScope };
}
