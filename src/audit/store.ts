/**
 * The store of the audit log (its hand-written SQL and the only writer of its tables): the one file a second backend rewrites for this
 * domain (docs/architecture.md, "Seams").
 */
import { getTableColumns, getTableName, sql } from "drizzle-orm";
import type { Core } from "../core";
import { perInstance } from "../platform/memo";
import { users } from "../users/tables";
import { auditLog } from "./tables";

// Appending runs inside every change (each page save): the statements are prepared once per
// database, on the driver (drizzle's mapping of rows cost more than the statements). The last
// entry is read with the actor's name in one statement, its LIMIT written out: as a bound
// parameter (drizzle's) SQLite took 9 µs for it, against 2.
const COLUMNS = ["sequence", "id", "action", "targetType", "targetId", "spaceId", "actorId", "actorName", "ip", "details", "createdAt", "prevHash", "hash"] as const;
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
