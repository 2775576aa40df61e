/**
 * The hand-written SQL of security administration (docs/architecture.md, "Seams"): security
 * events read from the audit log with a kind and a severity worked out from each entry's action
 * and details, and the audit log's position at an instant (sequences and times grow together).
 */
import { and, asc, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { auditLog } from "../../audit/tables";
import type { Core } from "../../core";
import { GROUP_ID } from "../../identity/builtin-groups";
import { listOf } from "../../platform/db/lists";
import { users } from "../../users/tables";
import { ROLE_ACTIONS, SECURITY_ACTIONS, SECURITY_KINDS, type SecurityKind } from "../kinds";

const detail = (path: string) => sql`json_extract(${auditLog.details}, ${path})`;
const among = (actions: readonly string[]) => (actions.length ? sql`${auditLog.action} IN (${listOf(actions)})` : sql`0`);

/** The failure that started a lock (not one checked during it, nor the right password refused by it). */
const LOCKOUT = sql`(${auditLog.action} = 'user.login_failed' AND ${detail("$.locked")} = 1
  AND ${detail("$.duringLock")} IS NULL AND ${detail("$.reason")} = 'wrong_password')`;

const KIND = sql<SecurityKind>`CASE
  WHEN ${LOCKOUT} THEN 'lockout'
  WHEN ${auditLog.action} = 'user.login_failed' THEN 'sign_in_failure'
  WHEN ${among(SECURITY_KINDS.token_minted.actions)} THEN 'token_minted'
  WHEN ${among(SECURITY_KINDS.permission_change.actions)} THEN 'permission_change'
  WHEN ${among(SECURITY_KINDS.account.actions)} THEN 'account'
  WHEN ${among(SECURITY_KINDS.restore.actions)} THEN 'restore'
  ELSE 'security' END`;

/**
 * 2 Critical: an account locked for every address; an alert a detector rated critical.
 * 1 Warning: any other lock; a space made public or opened to Everyone; every grant reset;
 * an administrator giving themselves access; role changes; restores; warning alerts.
 * 0 Info: the rest.
 */
const SEVERITY = sql<number>`CASE
  WHEN ${auditLog.action} = 'security.alert_raised' THEN coalesce(${detail("$.severity")}, 1)
  WHEN ${LOCKOUT} AND ${detail("$.everyAddress")} = 1 THEN 2
  WHEN ${LOCKOUT} THEN 1
  WHEN ${auditLog.action} = 'space.visibility_changed' AND ${detail("$.isPublic.to")} = 1 AND ${detail("$.isPublic.from")} = 0 THEN 1
  WHEN ${auditLog.action} = 'space.permission_granted' AND ${detail("$.principalId")} = ${GROUP_ID.everyone} THEN 1
  WHEN ${auditLog.action} IN ('space.permissions_reset', 'space.access_recovered') THEN 1
  WHEN ${among(SECURITY_KINDS.restore.actions)} THEN 1
  WHEN ${among(ROLE_ACTIONS)} THEN 1
  ELSE 0 END`;

export interface EventFilter {
  kind?: SecurityKind;
  /** At least this severity. */
  minSeverity?: number;
  before?: number;
  take: number;
}

/** Newest first; each with its kind, severity and the name of the account it is about (if any). */
export function selectSecurityEvents(core: Core, f: EventFilter) {
  const where: SQL[] = [among(f.kind ? SECURITY_KINDS[f.kind].actions : SECURITY_ACTIONS)];
  if (f.kind) where.push(sql`${KIND} = ${f.kind}`);
  if (f.minSeverity !== undefined && f.minSeverity > 0) where.push(sql`${SEVERITY} >= ${f.minSeverity}`);
  if (f.before !== undefined) where.push(lt(auditLog.sequence, f.before));
  return core.db
    .select({
      sequence: auditLog.sequence,
      id: auditLog.id,
      action: auditLog.action,
      kind: KIND,
      severity: SEVERITY,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      targetName: sql<
        string | null
      >`CASE WHEN ${auditLog.targetType} = 'user' THEN (SELECT ${users.email} FROM ${users} WHERE ${users.id} = ${auditLog.targetId}) END`,
      spaceId: auditLog.spaceId,
      actorId: auditLog.actorId,
      actorName: auditLog.actorName,
      ip: auditLog.ip,
      details: auditLog.details,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.sequence))
    .limit(f.take)
    .all();
}

/**
 * The first audit sequence written at or after `since` (one past the last when none is), by
 * bisection on the primary key: entries are appended in time order, so this is about twenty
 * point reads however long the log, and a window's entries are then an index range
 * (action, sequence) rather than a scan of every entry's time.
 */
export function firstSequenceSince(core: Core, since: string): number {
  const last = core.db
    .select({ sequence: auditLog.sequence, createdAt: auditLog.createdAt })
    .from(auditLog)
    .orderBy(desc(auditLog.sequence))
    .limit(1)
    .get();
  if (!last || last.createdAt < since) return (last?.sequence ?? 0) + 1;
  let lo = 1;
  let hi = last.sequence;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const at = core.db
      .select({ createdAt: auditLog.createdAt })
      .from(auditLog)
      .where(gte(auditLog.sequence, mid))
      .orderBy(asc(auditLog.sequence))
      .limit(1)
      .get();
    if (at && at.createdAt >= since) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Entries of these actions from sequence `from` on, optionally by one actor, one address or about one target. */
export function entriesSince(
  core: Core,
  actions: readonly string[],
  from: number,
  by: { actorId?: string; ip?: string; targetId?: string } = {},
) {
  const where: SQL[] = [among(actions), gte(auditLog.sequence, from)];
  if (by.actorId !== undefined) where.push(eq(auditLog.actorId, by.actorId));
  if (by.ip !== undefined) where.push(eq(auditLog.ip, by.ip));
  if (by.targetId !== undefined) where.push(eq(auditLog.targetId, by.targetId));
  return core.db
    .select({ action: auditLog.action, targetId: auditLog.targetId, actorId: auditLog.actorId, ip: auditLog.ip, details: auditLog.details })
    .from(auditLog)
    .where(and(...where))
    .all();
}

/** How many entries of an action were written from sequence `from` on. */
export function countSince(core: Core, action: string, from: number): number {
  return core.db.get<[number]>(
    sql`SELECT count(*) FROM ${auditLog} WHERE ${auditLog.action} = ${action} AND ${auditLog.sequence} >= ${from}`,
  )[0];
}
