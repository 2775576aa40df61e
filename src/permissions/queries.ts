/**
 * The hand-written statements of grants and restrictions: the one file a second backend
 * rewrites for this domain (docs/architecture.md, "Seams"). Query-builder calls stay with
 * the rules that use them.
 */
import { sql } from "drizzle-orm";
import type { Core } from "../core";
import { namesCaller } from "../access/queries";
import type { PrincipalParams } from "../access/principals";
import { spaceGrants, type RestrictionRow } from "./tables";

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
    sql`SELECT count(*) AS n, max(${namesCaller("r", p)}) AS named FROM page_restrictions r WHERE r.page_id = ${pageId} AND r.operation = ${operation}`,
  );
  return row;
}

/** A new space's first grants, in one statement (inside the caller's transaction; permissions/new-space.ts). */
export function insertSpaceGrants(core: Core, rows: (typeof spaceGrants.$inferInsert)[]): void {
  if (rows.length) core.db.insert(spaceGrants).values(rows).run();
}
