/** The page restrictions' store: the only module that writes `page_restrictions`. */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Core } from "../../core";
import type { PrincipalParams } from "../principals";
import { pageRestrictions, type RestrictionRow } from "../tables";
import { namesCaller } from "./reads";

/** Inserts restrictions (one statement for the list). */
export function insertRestrictions(core: Core, rows: RestrictionRow[]): void {
  if (rows.length) core.db.insert(pageRestrictions).values(rows).run();
}

/** The row restricting (page, operation) to this principal, if any. */
export function restrictionOf(
  core: Core,
  pageId: string,
  operation: number,
  principalType: number,
  principalId: string,
): RestrictionRow | undefined {
  return core.db
    .select()
    .from(pageRestrictions)
    .where(
      and(
        eq(pageRestrictions.pageId, pageId),
        eq(pageRestrictions.operation, operation),
        eq(pageRestrictions.principalType, principalType),
        eq(pageRestrictions.principalId, principalId),
      ),
    )
    .get();
}

/** A restriction by id, only when it is on the page. */
export function restrictionOfPageById(core: Core, pageId: string, id: string): RestrictionRow | undefined {
  return core.db
    .select()
    .from(pageRestrictions)
    .where(and(eq(pageRestrictions.id, id), eq(pageRestrictions.pageId, pageId)))
    .get();
}

export function deleteRestriction(core: Core, id: string): void {
  core.db.delete(pageRestrictions).where(eq(pageRestrictions.id, id)).run();
}

/** Deletes the page's restrictions (of one operation, or all) and answers them. */
export function deleteRestrictionsOfPage(core: Core, pageId: string, operation: number | undefined): RestrictionRow[] {
  return core.db
    .delete(pageRestrictions)
    .where(and(eq(pageRestrictions.pageId, pageId), operation === undefined ? undefined : eq(pageRestrictions.operation, operation)))
    .returning()
    .all();
}

/** The page's own restrictions, oldest first. */
export function restrictionsOfPage(core: Core, pageId: string): RestrictionRow[] {
  return core.db.select().from(pageRestrictions).where(eq(pageRestrictions.pageId, pageId)).orderBy(asc(pageRestrictions.createdAt)).all();
}

/** The restrictions on a page and on each of its ancestors, nearest first (depth 0: the page). */
export function restrictionsUpFrom(core: Core, pageId: string): (RestrictionRow & { depth: number })[] {
  return core.db.all<RestrictionRow & { depth: number }>(sql`
    WITH RECURSIVE up(id, parent_id, depth) AS (
      SELECT id, parent_id, 0 FROM pages WHERE id = ${pageId}
      UNION SELECT p.id, p.parent_id, up.depth + 1 FROM pages p JOIN up ON p.id = up.parent_id
    )
    SELECT r.id, r.page_id AS pageId, r.operation, r.principal_type AS principalType, r.principal_id AS principalId,
           r.created_by_id AS createdById, r.created_at AS createdAt, up.depth
    FROM page_restrictions r JOIN up ON r.page_id = up.id
    ORDER BY up.depth, r.operation, r.created_at, r.id`);
}

/** How many rows restrict (page, operation), and whether one names these principals (1) or none does (0; null: no rows). */
export function restrictionTally(core: Core, pageId: string, operation: number, p: PrincipalParams): { n: number; named: number | null } {
  const [row] = core.db.all<{ n: number; named: number | null }>(
    sql`SELECT count(*) AS n, max(${namesCaller("r", p)}) AS named FROM page_restrictions r
      WHERE r.page_id = ${pageId} AND r.operation = ${operation}`,
  );
  return row;
}
