/**
 * The store of the audit log (its hand-written SQL and the only writer of its table): the one
 * file a second backend rewrites for this domain (docs/architecture.md, "Seams").
 */
import { and, asc, desc, getTableColumns, getTableName, gt, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { Core } from "../core";
import { perInstance } from "../platform/memo";
import { pages, type PageRow } from "../pages/tables";
import { spaces, type SpaceRow } from "../spaces/tables";
import { users } from "../users/tables";
import { auditLog } from "./tables";

// Appending runs inside every change (each page save): the statements are prepared once per
// database, on the driver (drizzle's mapping of rows cost more than the statements). The last
// entry is read with the actor's name in one statement, its LIMIT written out: as a bound
// parameter (drizzle's) SQLite took 9 µs for it, against 2.
const COLUMNS = [
  "sequence",
  "id",
  "action",
  "targetType",
  "targetId",
  "spaceId",
  "actorId",
  "actorName",
  "ip",
  "details",
  "createdAt",
  "prevHash",
  "hash",
] as const;
export const appendStatements = perInstance((core: Core) => {
  const columns = COLUMNS.map((c) => `"${getTableColumns(auditLog)[c].name}"`).join(", ");
  const name = `SELECT "display_name" FROM "${getTableName(users)}" WHERE "id" = ?1`;
  return {
    last: core.sqlite.query<{ sequence: number; hash: string; actorName: string | null }, [string | null]>(
      `SELECT "sequence", "hash", (${name}) AS actorName FROM "audit_log" ORDER BY "sequence" DESC LIMIT 1`,
    ),
    name: core.sqlite.query<{ name: string }, [string]>(`SELECT "display_name" AS name FROM "${getTableName(users)}" WHERE "id" = ?`),
    insert: core.sqlite.query<never, [Record<(typeof COLUMNS)[number], string | number | null>]>(
      `INSERT INTO "audit_log" (${columns}) VALUES (${COLUMNS.map((c) => `$${c}`).join(", ")})`,
    ),
  };
});

/** The highest sequence the log ever handed out (SQLite's AUTOINCREMENT counter), 0 for none. */
export function highestSequenceIssued(core: Pick<Core, "db">): number {
  return core.db.get<[number] | undefined>(sql`SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'`)?.[0] ?? 0;
}

/**
 * The pages and spaces a batch of entries names, by id (two statements; none when there are no
 * ids): a read across domains, for the visibility check of the entries.
 */
export function pagesAndSpaces(core: Pick<Core, "db">, pageIds: string[], spaceIdsOf: (pages: PageRow[]) => string[]) {
  const pageRows = pageIds.length ? core.db.select().from(pages).where(inArray(pages.id, pageIds)).all() : [];
  const pageById = new Map<string, PageRow>(pageRows.map((p) => [p.id, p]));
  const spaceIds = spaceIdsOf(pageRows);
  const spaceById = new Map<string, SpaceRow>(
    spaceIds.length
      ? core.db
          .select()
          .from(spaces)
          .where(inArray(spaces.id, spaceIds))
          .all()
          .map((s) => [s.id, s])
      : [],
  );
  return { pageById, spaceById };
}

/** Entries matching `filters` below sequence `before` (null: from the newest), newest first. */
export function entriesBefore(core: Pick<Core, "db">, filters: (SQL | undefined)[], before: number | null, limit: number) {
  return core.db
    .select()
    .from(auditLog)
    .where(and(...filters, before === null ? undefined : lt(auditLog.sequence, before)))
    .orderBy(desc(auditLog.sequence))
    .limit(limit)
    .all();
}

/** Entries from sequence `from` on, in sequence order (the chain's walk). */
export function entriesFrom(core: Pick<Core, "db">, from: number, limit: number) {
  return core.db
    .select()
    .from(auditLog)
    .where(gt(auditLog.sequence, from - 1))
    .orderBy(asc(auditLog.sequence))
    .limit(limit)
    .all();
}

/** The newest entry's sequence and hash (null: the log is empty). */
export function chainHead(core: Pick<Core, "db">): { sequence: number; hash: string } | null {
  return (
    core.db.select({ sequence: auditLog.sequence, hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.sequence)).limit(1).get() ??
    null
  );
}
