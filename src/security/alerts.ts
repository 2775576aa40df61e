/**
 * Security alerts: raised by the detectors (detectors.ts), acknowledged and resolved by an
 * administrator with security.manage. Status moves Open → Acknowledged → Resolved, or Open →
 * Resolved; a resolved alert stays resolved (the next hit opens a new one). Every move is
 * audited in the same transaction.
 */
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { requireRight } from "../identity/rights";
import { requireUser, type Caller } from "../identity/caller";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { AppError, invalid, notFound } from "../platform/errors";
import { ALERT_STATUS } from "./kinds";
import { displayNamesOf } from "../users/store/accounts";
import {
  alertById,
  insertAlert,
  lastAlertResolvedAt,
  latestAlerts,
  unresolvedAlert,
  unresolvedAlertLevels,
  updateAlert,
} from "./store/alerts";
import type { SecurityAlertRow } from "./tables";
import { ALERT_NOTE_MAX } from "../common/limits";

export { ALERT_NOTE_MAX };
export const ALERTS_TAKE_MAX = 200;

/**
 * Raises an alert about a subject, or bumps the one not yet resolved (in its own transaction,
 * or the caller's). A new alert records security.alert_raised (no actor: Cairn raised it).
 */
export function raiseAlert(
  core: Core,
  detector: string,
  subject: string,
  severity: number,
  summary: string,
  details: Record<string, unknown>,
): void {
  core.tx(() => upsertAlert(core, detector, subject, severity, summary, details));
}

function upsertAlert(
  core: Core,
  detector: string,
  subject: string,
  severity: number,
  summary: string,
  details: Record<string, unknown>,
): void {
  const now = iso(core.clock.now());
  const open = unresolvedAlert(core, detector, subject);
  if (open) {
    updateAlert(core, open.id, { hits: open.hits + 1, lastSeenAt: now, summary, details, severity: Math.max(open.severity, severity) });
    return;
  }
  const id = newId();
  insertAlert(core, {
    id,
    detector,
    subject,
    severity,
    status: ALERT_STATUS.Open,
    summary,
    details,
    hits: 1,
    createdAt: now,
    lastSeenAt: now,
  });
  recordEvent(core, {
    type: "security.alert_raised",
    targetType: "security_alert",
    targetId: id,
    spaceId: null,
    actorId: null,
    data: { detector, subject, severity, summary },
  });
  core.log.warn("security alert", { detector, subject, summary });
}

/** When an administrator last resolved this subject's alert, if ever. */
export function lastResolvedAt(core: Core, detector: string, subject: string): string | null {
  return lastAlertResolvedAt(core, detector, subject);
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
  const names = displayNamesOf(core, ids);
  return rows.map((r) => toAlert(r, names));
}

/** GET /api/admin/security/alerts: newest activity first, optionally of one status. */
export function listAlerts(core: Core, caller: Caller, query: { status?: number; take?: number }): Alert[] {
  requireRight(requireUser(caller), "security.manage");
  if (query.status !== undefined && ![0, 1, 2].includes(query.status))
    throw invalid("status", "must be 0 (open), 1 (acknowledged) or 2 (resolved)");
  const take = query.take ?? 100;
  if (!Number.isInteger(take) || take < 1 || take > ALERTS_TAKE_MAX)
    throw invalid("take", `must be a whole number from 1 to ${ALERTS_TAKE_MAX}`);
  const rows = latestAlerts(core, query.status, take);
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
    const row = alertById(core, id);
    if (!row) throw notFound("Alert not found");
    const status = to === "acknowledged" ? ALERT_STATUS.Acknowledged : ALERT_STATUS.Resolved;
    if (row.status === ALERT_STATUS.Resolved && status === ALERT_STATUS.Acknowledged)
      throw new AppError("conflict", { detail: "This alert is already resolved; a new one opens if the detector sees more." });
    if (row.status === status) return withNames(core, [row])[0];
    const now = iso(core.clock.now());
    const change =
      status === ALERT_STATUS.Acknowledged
        ? { acknowledgedAt: now, acknowledgedById: user.user.id }
        : { resolvedAt: now, resolvedById: user.user.id };
    updateAlert(core, id, { status, ...change, note: note ?? row.note });
    recordEvent(core, {
      type: to === "acknowledged" ? "security.alert_acknowledged" : "security.alert_resolved",
      targetType: "security_alert",
      targetId: id,
      spaceId: null,
      actorId: user.user.id,
      ip: user.ip,
      data: { detector: row.detector, subject: row.subject, summary: row.summary, note },
    });
    return withNames(core, [alertById(core, id)!])[0];
  });
}

/** Open and acknowledged alerts by severity (the overview). */
export function unresolvedBySeverity(core: Core): { info: number; warning: number; critical: number; acknowledged: number } {
  const rows = unresolvedAlertLevels(core);
  const open = rows.filter((r) => r.status === ALERT_STATUS.Open);
  return {
    info: open.filter((r) => r.severity === 0).length,
    warning: open.filter((r) => r.severity === 1).length,
    critical: open.filter((r) => r.severity === 2).length,
    acknowledged: rows.length - open.length,
  };
}
