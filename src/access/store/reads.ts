/**
 * Every statement the access rules run, as SQL: the one file a second backend rewrites for this
 * domain (docs/architecture.md, "Seams"). The rules themselves stay in spaces.ts and pages.ts;
 * this file only answers what they ask.
 *
 * Who a caller is, as grants and restrictions name people: the account itself (principal type
 * 0) and every group it is in (type 1): the built-in groups of its role tier plus its custom
 * groups. Written as SQL so a whole list is filtered in one statement (never a query per row);
 * custom group membership is a sub-select SQLite evaluates once per statement.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Caller } from "../../identity/caller";
import type { Core } from "../../core";
import { listOf, listOfJson, listParam } from "../../platform/db/lists";
import { perInstance } from "../../platform/memo";
import { getSettings } from "../../settings/service";
import { PAGE_STATUS, pages } from "../../pages/tables";
import { OPERATION } from "../tables";
import { principalParams, type PrincipalParams } from "../principals";

/**
 * "Row `alias` names the caller", for raw prepared statements binding $uid and $builtins.
 * `alias` is a table alias written by this module, never input.
 */
export function namesCallerRaw(alias: string): string {
  return (
    `((${alias}.principal_type = 0 AND ${alias}.principal_id = $uid) OR (${alias}.principal_type = 1 AND (${alias}.principal_id IN ` +
    `(${listParam("$builtins")}) OR ${alias}.principal_id IN (SELECT group_id FROM group_members WHERE user_id = $uid))))`
  );
}

/** The same test as a drizzle fragment with the caller's values bound. */
export function namesCaller(alias: string, p: PrincipalParams): SQL {
  const a = sql.raw(alias);
  return sql`((${a}.principal_type = 0 AND ${a}.principal_id = ${p.uid})
    OR (${a}.principal_type = 1 AND (${a}.principal_id IN (${listOfJson(p.builtins)})
      OR ${a}.principal_id IN (SELECT group_id FROM group_members WHERE user_id = ${p.uid}))))`;
}

// ---- Spaces ----

const grantQuery = perInstance((db: Core["sqlite"]) =>
  db.query<{ op: number | null }, { space: string; uid: string; builtins: string }>(
    `SELECT max(g.operation) AS op FROM space_grants g WHERE g.space_id = $space AND ${namesCallerRaw("g")}`,
  ),
);

/** The highest operation the grants naming these principals give on the space (null: none). */
export function highestGrant(core: Core, spaceId: string, params: PrincipalParams): number | null {
  return grantQuery(core.sqlite).get({ space: spaceId, ...params })?.op ?? null;
}

/**
 * SQL: the ids of the spaces the caller may read, for lists (`column IN (…)`). One
 * sub-select, evaluated once per statement.
 */
export function readableSpaceIds(core: Core, caller: Caller): SQL {
  const p = principalParams(caller);
  const granted =
    caller.kind === "user" ? sql`SELECT g.space_id FROM space_grants g WHERE ${namesCaller("g", p)}` : sql`SELECT NULL WHERE 0`;
  if (!getSettings(core).allowPublicSpaces) return granted;
  return sql`${granted} UNION SELECT s.id FROM spaces s WHERE s.is_public = 1 AND s.archived_at IS NULL`;
}

/** SQL condition: `column` (a space id) is readable by the caller. */
export function readableSpaceFilter(core: Core, caller: Caller, column: SQL | { getSQL(): SQL }): SQL {
  return sql`${column} IN (${readableSpaceIds(core, caller)})`;
}

/** SQL condition for lists: `column` (a space id) is a space the caller administers. */
export function administeredSpaceFilter(caller: Caller, column: SQL | { getSQL(): SQL }): SQL {
  return sql`${column} IN (${adminSpaceIds(caller)})`;
}

/** SQL: the ids of the spaces the caller administers (restrictions never shut them out). */
export function adminSpaceIds(caller: Caller): SQL {
  if (caller.kind !== "user") return sql`SELECT NULL WHERE 0`;
  return sql`SELECT g.space_id FROM space_grants g WHERE g.operation = ${OPERATION.Admin} AND ${namesCaller("g", principalParams(caller))}`;
}

// ---- Pages ----

// For each restricted page at or above the page: its operation and whether a row names the caller.
const restrictionsAbove = perInstance((db: Core["sqlite"]) =>
  db.query<{ op: number; named: number }, { page: string; uid: string; builtins: string }>(`
    WITH RECURSIVE up(id, parent_id) AS (
      SELECT id, parent_id FROM pages WHERE id = $page
      UNION SELECT p.id, p.parent_id FROM pages p JOIN up ON p.id = up.parent_id
    )
    SELECT r.operation AS op, max(${namesCallerRaw("r")}) AS named
    FROM page_restrictions r JOIN up ON r.page_id = up.id
    GROUP BY r.page_id, r.operation`),
);

/** The restrictions at and above the page: per restricted page and operation, whether a row names the caller. */
export function restrictionsAboveOf(core: Core, pageId: string, params: PrincipalParams): { op: number; named: number }[] {
  return restrictionsAbove(core.sqlite).all({ page: pageId, ...params });
}

/** Whether one of these pages was created by someone other than the user (or by an account now gone). */
export function anyCreatedByOthers(core: Core, batch: string[], userId: string): boolean {
  // One statement whatever the batch's size (json_each: no limit on bound variables).
  const others = core.db.get<{ id: string } | undefined>(
    sql`SELECT ${pages.id} AS id FROM ${pages} WHERE ${pages.id} IN (${listOf(batch)}) AND ${pages.createdById} IS NOT ${userId} LIMIT 1`,
  );
  return others !== undefined;
}

/**
 * The restricted pages of one space whose restriction names none of these principals, View and
 * Edit apart, in one statement (the tree needs both on every read).
 */
export function failedRestrictions(core: Core, spaceId: string, p: PrincipalParams): { view: string[]; edit: string[] } {
  const rows = core.db.all<{ id: string; op: number }>(
    sql`SELECT r.page_id AS id, r.operation AS op FROM page_restrictions r CROSS JOIN pages rp ON rp.id = r.page_id
        WHERE rp.space_id = ${spaceId}
        GROUP BY r.page_id, r.operation HAVING max(${namesCaller("r", p)}) = 0`,
  );
  const failed = { view: [] as string[], edit: [] as string[] };
  for (const r of rows) (r.op === OPERATION.View ? failed.view : failed.edit).push(r.id);
  return failed;
}

/**
 * SQL: the ids of the pages the caller may not see because of a View restriction at or above
 * them, in the spaces `spaceScope` names (or every readable space). One recursive statement
 * down from the restricted pages the caller fails; space admins fail none in their spaces.
 */
export function hiddenPageIds(core: Core, caller: Caller, spaceScope?: string): SQL {
  return hiddenUnder(
    caller,
    spaceScope === undefined ? sql`rp.space_id IN (${readableSpaceIds(core, caller)})` : sql`rp.space_id = ${spaceScope}`,
  );
}

function hiddenUnder(caller: Caller, spaces: SQL): SQL {
  return sql`WITH RECURSIVE hidden(id) AS (
      SELECT r.page_id FROM page_restrictions r CROSS JOIN pages rp ON rp.id = r.page_id
      WHERE r.operation = ${OPERATION.View} AND ${spaces} AND rp.space_id NOT IN (${adminSpaceIds(caller)})
      GROUP BY r.page_id HAVING max(${namesCaller("r", principalParams(caller))}) = 0
      UNION SELECT c.id FROM pages c JOIN hidden h ON c.parent_id = h.id
    ) SELECT id FROM hidden`;
}

/** Runs hiddenPageIds over every readable space: the ids themselves. */
export function hiddenPageIdList(core: Core, caller: Caller): string[] {
  return core.db.all<{ id: string }>(hiddenPageIds(core, caller)).map((r) => r.id);
}

/** SQL condition: `pageId` (a column) is not hidden, worked out in the statement itself. */
export function notHiddenLive(core: Core, caller: Caller, pageId: SQL | { getSQL(): SQL }): SQL {
  return sql`${pageId} NOT IN (${hiddenPageIds(core, caller)})`;
}

/** SQL condition: `pageId` (a column) is none of `ids` (always true for none). */
export function notAmong(pageId: SQL | { getSQL(): SQL }, ids: readonly string[]): SQL {
  return ids.length === 0 ? sql`1` : sql`${pageId} NOT IN (${listOf(ids)})`;
}

/**
 * The SQL condition for lists over `pages`: in a space the caller may read, published or the
 * caller's own draft, and `notHidden` (the View restrictions' part, from hidden-cache.ts).
 */
export function visiblePagesWhere(core: Core, caller: Caller, notHidden: SQL): SQL {
  const own = caller.kind === "user" ? sql` OR ${pages.createdById} = ${caller.user.id}` : sql``;
  return sql`(${pages.spaceId} IN (${readableSpaceIds(core, caller)})
    AND (${pages.status} = ${PAGE_STATUS.Published}${own}) AND ${notHidden})`;
}

/** Which of `ids` are pages meeting `filter` (visiblePagesWhere): one statement for the lot. */
export function pageIdsWhere(core: Core, ids: string[], filter: SQL): string[] {
  return core.db
    .all<{ id: string }>(sql`SELECT ${pages.id} AS id FROM ${pages} WHERE ${pages.id} IN (${listOf(ids)}) AND ${filter}`)
    .map((r) => r.id);
}
