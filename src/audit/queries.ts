/**
 * The hand-written SQL of the audit log: the one file a second backend rewrites for this
 * domain (docs/architecture.md, "Seams").
 */
import { desc, eq, sql } from "drizzle-orm";
import type { Core } from "../core";
import { perInstance } from "../platform/memo";
import { users } from "../users/tables";
import { auditLog } from "./tables";

// Appending runs inside every change (each page save): the three statements are prepared once
// per database, since drizzle otherwise rebuilds their SQL on every call (measured here: about
// 45 µs an entry prepared, several times that unprepared).
const COLUMNS = ["sequence", "id", "action", "targetType", "targetId", "spaceId", "actorId", "actorName", "ip", "details", "createdAt", "prevHash", "hash"] as const;
export const appendStatements = perInstance((core: Core) => {
  const actorId = sql.placeholder("actorId");
  return {
    last: core.db
      .select({ sequence: auditLog.sequence, hash: auditLog.hash, actorName: sql<string | null>`(SELECT ${users.displayName} FROM ${users} WHERE ${users.id} = ${actorId})` })
      .from(auditLog)
      .orderBy(desc(auditLog.sequence))
      .limit(1)
      .prepare(),
    name: core.db.select({ name: users.displayName }).from(users).where(eq(users.id, actorId)).prepare(),
    insert: core.db
      .insert(auditLog)
      .values(Object.fromEntries(COLUMNS.map((c) => [c, sql.placeholder(c)])) as never)
      .prepare(),
  };
});

/** The highest sequence the log ever handed out (SQLite's AUTOINCREMENT counter), 0 for none. */
export function highestSequenceIssued(core: Pick<Core, "db">): number {
  return core.db.get<[number] | undefined>(sql`SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'`)?.[0] ?? 0;
}
