import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Alerts raised by the security detectors (detectors.ts). While an alert about a detector's
 * subject is not resolved, that subject raises no other: a further hit only bumps `hits` and
 * `lastSeenAt` (one open alert per detector and subject, so an attack is one line, not a flood).
 * Status and severity are integer enums (docs/api.md, "Integer enums"). No foreign keys: an
 * alert outlives the account it names.
 */
export const securityAlerts = sqliteTable(
  "security_alerts",
  {
    id: text("id").primaryKey(),
    /** brute_force_address, brute_force_account, mass_deletion, permission_expansion, token_burst. */
    detector: text("detector").notNull(),
    /** What it is about, e.g. "address:203.0.113.7", "user:<id>", "space:<id>". */
    subject: text("subject").notNull(),
    /** 0 Info, 1 Warning, 2 Critical. */
    severity: integer("severity").notNull(),
    /** 0 Open, 1 Acknowledged, 2 Resolved. */
    status: integer("status").notNull().default(0),
    /** One sentence for people: what was seen. */
    summary: text("summary").notNull(),
    /** JSON: the figures the detector saw (counts, window, accounts, addresses). */
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** How many times the detector fired while this alert was not resolved. */
    hits: integer("hits").notNull().default(1),
    createdAt: text("created_at").notNull(),
    lastSeenAt: text("last_seen_at").notNull(),
    acknowledgedAt: text("acknowledged_at"),
    acknowledgedById: text("acknowledged_by_id"),
    resolvedAt: text("resolved_at"),
    resolvedById: text("resolved_by_id"),
    /** The last note given on acknowledge or resolve. */
    note: text("note"),
  },
  (t) => [
    uniqueIndex("security_alerts_one_open_uq").on(t.detector, t.subject).where(sql`${t.status} <> 2`),
    index("security_alerts_subject_idx").on(t.detector, t.subject, t.resolvedAt),
    index("security_alerts_status_idx").on(t.status, t.lastSeenAt),
    check("security_alerts_status_ck", sql`${t.status} IN (0, 1, 2)`),
    check("security_alerts_severity_ck", sql`${t.severity} IN (0, 1, 2)`),
  ],
);

/**
 * Address blocks: requests from an address inside `cidr` get 403 address_blocked before
 * anything else (blocks.ts), until `expiresAt` (null: until removed).
 */
export const securityBlocks = sqliteTable("security_blocks", {
  id: text("id").primaryKey(),
  /** Normalised: the network address and its prefix length ("203.0.113.0/24", "2001:db8::/32"). */
  cidr: text("cidr").notNull(),
  reason: text("reason").notNull(),
  createdById: text("created_by_id"),
  createdAt: text("created_at").notNull(),
  expiresAt: text("expires_at"),
});

export type SecurityAlertRow = typeof securityAlerts.$inferSelect;
export type SecurityBlockRow = typeof securityBlocks.$inferSelect;
