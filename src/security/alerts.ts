/**
 * Security alerts: raised by the detectors (detectors.ts), acknowledged and resolved by an
 * administrator with security.manage. Status moves Open → Acknowledged → Resolved, or Open →
 * Resolved; a resolved alert stays resolved (the next hit opens a new one). Every move is
 * audited in the same transaction.
 */
import { and, desc, eq, max, ne } from "drizzle-orm";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { requireRight } from "../identity/rights";
import { requireUser, type Caller } from "../identity/caller";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { AppError, invalid, notFound } from "../platform/errors";
import { users } from "../users/tables";
import { ALERT_STATUS } from "./kinds";
import { securityAlerts, type SecurityAlertRow } from "./tables";
import { ALERT_NOTE_MAX } from "../shared/limits";

export { ALERT_NOTE_MAX };
export const ALERTS_TAKE_MAX = 200;

/**
 * Raises an alert about a subject, or bumps the one not yet resolved (in its own transaction,
 * or the caller's). A new alert records security.alert_raised (no actor: Cairn raised it).
 */
export function raiseAlert(core: Core, detector: string, subject: string, severity: number, summary: string, details: Record<string, unknown>): void {
  core.tx(() => upsertAlert(core, detector, subject, severity, summary, details));
}

function upsertAlert(core: Core, detector: string, subject: string, severity: number, summary: string, details: Record<string, unknown>): void {
  const now = iso(core.clock.now());
  const open = core.db
    .select()
    .from(securityAlerts)
    .where(and(eq(securityAlerts.detector, detector), eq(securityAlerts.subject, subject), ne(securityAlerts.status, ALERT_STATUS.Resolved)))
    .get();
  if (open) {
    core.db
      .update(securityAlerts)
      .set({ hits: open.hits + 1, lastSeenAt: now, summary, details, severity: Math.max(open.severity, severity) })
      .where(eq(securityAlerts.id, open.id))
      .run();
    return;
  }
  const id = newId();
  core.db.insert(securityAlerts).values({ id, detector, subject, severity, status: ALERT_STATUS.Open, summary, details, hits: 1, createdAt: now, lastSeenAt: now }).run();
  recordEvent(core, { type: "security.alert_raised", targetType: "security_alert", targetId: id, spaceId: null, actorId: null, data: { detector, subject, severity, summary } });
  core.log.warn("security alert", { detector, subject, summary });
}

/** When an administrator last resolved this subject's alert, if ever. */
export function lastResolvedAt(core: Core, detector: string, subject: string): string | null {
  return (
    core.db
      .select({ at: max(securityAlerts.resolvedAt) })
      .from(securityAlerts)
      .where(and(eq(securityAlerts.detector, detector), eq(securityAlerts.subject, subject)))
      .get()?.at ?? null
  );
}

export function toAlert(row: SecurityAlertRow, names: Map<string, string>) {
  return {
    id: row.id,
    detector: row.detector,
    subject: row.subject,
    severity: row.severity,
    status: row.status,
    summary: row.summary,
    details: row.details,
    hits: row.hits,
    createdAt: row.createdAt,
    lastSeenAt: row.lastSeenAt,
    acknowledgedAt: row.acknowledgedAt,
    acknowledgedByName: row.acknowledgedById ? (names.get(row.acknowledgedById) ?? null) : null,
    resolvedAt: row.resolvedAt,
    resolvedByName: row.resolvedById ? (names.get(row.resolvedById) ?? null) : null,
    note: row.note,
  };
}

export type Alert = ReturnType<typeof toAlert>;

function withNames(core: Core, rows: SecurityAlertRow[]): Alert[] {
  const ids = [...new Set(rows.flatMap((r) => [r.acknowledgedById, r.resolvedById].filter((x): x is string => x !== null)))];
  const names = new Map<string, string>();
  for (const id of ids) {
    const u = core.db.select({ name: users.displayName }).from(users).where(eq(users.id, id)).get();
    if (u) names.set(id, u.name);
  }
  return rows.map((r) => toAlert(r, names));
}

/** GET /api/admin/security/alerts: newest activity first, optionally of one status. */
export function listAlerts(core: Core, caller: Caller, query: { status?: number; take?: number }): Alert[] {
  requireRight(requireUser(caller), "security.manage");
  if (query.status !== undefined && ![0, 1, 2].includes(query.status)) throw invalid("status", "must be 0 (open), 1 (acknowledged) or 2 (resolved)");
  const take = query.take ?? 100;
  if (!Number.isInteger(take) || take < 1 || take > ALERTS_TAKE_MAX) throw invalid("take", `must be a whole number from 1 to ${ALERTS_TAKE_MAX}`);
  const rows = core.db
    .select()
    .from(securityAlerts)
    .where(query.status === undefined ? undefined : eq(securityAlerts.status, query.status))
    .orderBy(desc(securityAlerts.lastSeenAt), desc(securityAlerts.id))
    .limit(take)
    .all();
  return withNames(core, rows);
}

function cleanNote(note: string | undefined): string | null {
  const text = note?.trim() ?? "";
  if (text.length > ALERT_NOTE_MAX) throw invalid("note", `must be at most ${ALERT_NOTE_MAX} characters`);
  return text || null;
}

/**
 * POST …/alerts/{id}/acknowledge and …/resolve. Acknowledging a resolved alert is a 409 (it is
 * closed); acknowledging an acknowledged one, or resolving a resolved one, changes nothing and
 * answers the alert as it is. A note given replaces the last one.
 */
export function moveAlert(core: Core, caller: Caller, id: string, to: "acknowledged" | "resolved", body: { note?: string }): Alert {
  const user = requireUser(caller);
  requireRight(user, "security.manage");
  const note = cleanNote(body.note);
  return core.tx(() => {
    const row = core.db.select().from(securityAlerts).where(eq(securityAlerts.id, id)).get();
    if (!row) throw notFound("Alert not found");
    const status = to === "acknowledged" ? ALERT_STATUS.Acknowledged : ALERT_STATUS.Resolved;
    if (row.status === ALERT_STATUS.Resolved && status === ALERT_STATUS.Acknowledged) throw new AppError("conflict", { detail: "This alert is already resolved; a new one opens if the detector sees more." });
    if (row.status === status) return withNames(core, [row])[0];
    const now = iso(core.clock.now());
    const change = status === ALERT_STATUS.Acknowledged ? { acknowledgedAt: now, acknowledgedById: user.user.id } : { resolvedAt: now, resolvedById: user.user.id };
    core.db
      .update(securityAlerts)
      .set({ status, ...change, note: note ?? row.note })
      .where(eq(securityAlerts.id, id))
      .run();
    recordEvent(core, {
      type: to === "acknowledged" ? "security.alert_acknowledged" : "security.alert_resolved",
      targetType: "security_alert",
      targetId: id,
      spaceId: null,
      actorId: user.user.id,
      ip: user.ip,
      data: { detector: row.detector, subject: row.subject, summary: row.summary, note },
    });
    return withNames(core, [core.db.select().from(securityAlerts).where(eq(securityAlerts.id, id)).get()!])[0];
  });
}

/** Open and acknowledged alerts by severity (the overview). */
export function unresolvedBySeverity(core: Core): { info: number; warning: number; critical: number; acknowledged: number } {
  const rows = core.db.select({ severity: securityAlerts.severity, status: securityAlerts.status }).from(securityAlerts).where(ne(securityAlerts.status, ALERT_STATUS.Resolved)).all();
  const open = rows.filter((r) => r.status === ALERT_STATUS.Open);
  return {
    info: open.filter((r) => r.severity === 0).length,
    warning: open.filter((r) => r.severity === 1).length,
    critical: open.filter((r) => r.severity === 2).length,
    acknowledged: rows.length - open.length,
  };
}
