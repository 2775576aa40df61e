import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The audit log (docs/decisions.md, "Audit log"): one row per change of content, access, accounts,
 * tokens, settings and webhooks, written in the change's transaction and hash-chained (see
 * chain.ts). Triggers (migration 0005_audit_append_only) refuse UPDATE and DELETE. No foreign keys:
 * an entry outlives the account, space or page it names.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    /**
     * 1, 2, 3… with no gaps, set by the writer (last + 1) because the hash covers it.
     * AUTOINCREMENT keeps sqlite_sequence at the highest number ever written, which lets
     * verification notice rows cut off the end of the log.
     */
    sequence: integer("sequence").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    /** The event type, e.g. "page.created". */
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    spaceId: text("space_id"),
    actorId: text("actor_id"),
    /** The actor's display name when the entry was written. */
    actorName: text("actor_name"),
    ip: text("ip"),
    /** Canonical JSON text (chain.ts), hashed exactly as stored. */
    details: text("details").notNull(),
    createdAt: text("created_at").notNull(),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  // The filters of GET /api/audit (by target, by who, by what) each walk newest first.
  (t) => [
    index("audit_log_target_idx").on(t.targetType, t.targetId, t.sequence),
    index("audit_log_actor_idx").on(t.actorId, t.sequence),
    index("audit_log_action_idx").on(t.action, t.sequence),
  ],
);

export type AuditRow = typeof auditLog.$inferSelect;
