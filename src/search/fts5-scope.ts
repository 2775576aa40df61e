import type { SQLQueryBindings } from "bun:sqlite";
import type { SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import type { Core } from "../core";
import { listParam } from "../platform/db/lists";

/**
 * Ranked matches checked against the caller's scope at a time, after a first round of just the
 * number wanted (enough when all are in scope, as for most callers: reading a page's row is
 * most of the check, and a round of 100 read twice the rows a search of 50 needs).
 */
const SCOPE_ROUND = 100;

/**
 * The first `wanted` of these ranked pages (doc ids, best first) that are in the caller's
 * scope, checked `wanted`, then SCOPE_ROUND, at a time, and whether any checked were not. Matches are ranked
 * without the scope (reading each page's row for it costs more than ranking), then checked in
 * order of rank: when they are all in scope, as for most callers, that is the same as ranking
 * in scope. When some are not and too few are left, the caller ranks within the scope instead,
 * so that pages the caller cannot read never take the place of pages it can.
 */
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

export function firstInScope(core: Core, ranked: readonly number[], scope: SQL, wanted: number): { ids: number[]; outOfScope: boolean } {
  const ids: number[] = [];
  let outOfScope = false;
  const { text, params } = scopeText(scope);
  const check = core.sqlite.query<{ docId: number }, SQLQueryBindings[]>(
    `SELECT pages.doc_id AS docId FROM pages JOIN spaces ON spaces.id = pages.space_id WHERE pages.doc_id IN (${listParam("?")}) AND ${text}`,
  );
  for (let from = 0; from < ranked.length && ids.length < wanted; ) {
    const to = from + (from === 0 ? wanted : SCOPE_ROUND);
    const round = ranked.slice(from, to);
    from = to;
    const inScope = new Set(check.all(JSON.stringify(round), ...params).map((r) => r.docId));
    if (inScope.size < round.length) outOfScope = true;
    for (const id of round) if (inScope.has(id) && ids.length < wanted) ids.push(id);
  }
  return { ids, outOfScope };
}
