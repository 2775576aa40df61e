/** Test helpers for the audit log. */
import { asc } from "drizzle-orm";
import type { TestEnv } from "../../tests/harness";
import { recordEvent } from "../events/outbox";
import { auditLog } from "./tables";

/** Every audit row, oldest first. */
export function auditRows(env: TestEnv) {
  return env.core.db.select().from(auditLog).orderBy(asc(auditLog.sequence)).all();
}

/** The rows of one action, details parsed. */
export function auditOf(env: TestEnv, action: string) {
  return auditRows(env)
    .filter((r) => r.action === action)
    .map((r) => ({ ...r, details: JSON.parse(r.details) as Record<string, any> }));
}

/**
 * Runs raw SQL against the log with the append-only triggers dropped, as someone editing the
 * database file would; the triggers are put back afterwards.
 */
export function tamper(env: TestEnv, statements: string): void {
  const db = env.core.sqlite;
  const triggers = db.query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_log'").all();
  db.exec("DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete;");
  try {
    db.exec(statements);
  } finally {
    for (const t of triggers) db.exec(t.sql);
  }
}

/** n more entries (group.updated), one transaction each. */
export function seedEntries(env: TestEnv, n: number, targetId = (i: number) => `g${i}`): void {
  for (let i = 0; i < n; i++) {
    env.core.tx(() =>
      recordEvent(env.core, {
        type: "group.updated",
        targetType: "group",
        targetId: targetId(i),
        spaceId: null,
        actorId: null,
        ip: null,
        data: { i },
      }),
    );
  }
}
