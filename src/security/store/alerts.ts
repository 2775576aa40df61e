/** The security alerts' store: the only module that writes `security_alerts`. */
import { and, desc, eq, max, ne } from "drizzle-orm";
import type { Core } from "../../core";
import { ALERT_STATUS } from "../kinds";
import { securityAlerts, type SecurityAlertRow } from "../tables";

/** The subject's alert not yet resolved, if any. */
export function unresolvedAlert(core: Core, detector: string, subject: string): SecurityAlertRow | undefined {
  return core.db
    .select()
    .from(securityAlerts)
    .where(
      and(eq(securityAlerts.detector, detector), eq(securityAlerts.subject, subject), ne(securityAlerts.status, ALERT_STATUS.Resolved)),
    )
    .get();
}

export function insertAlert(core: Core, row: typeof securityAlerts.$inferInsert): void {
  core.db.insert(securityAlerts).values(row).run();
}

type AlertChange = Partial<Omit<SecurityAlertRow, "id" | "detector" | "subject" | "createdAt">>;

export function updateAlert(core: Core, id: string, change: AlertChange): void {
  core.db.update(securityAlerts).set(change).where(eq(securityAlerts.id, id)).run();
}

export function alertById(core: Core, id: string): SecurityAlertRow | undefined {
  return core.db.select().from(securityAlerts).where(eq(securityAlerts.id, id)).get();
}

/** When the subject's alert was last resolved, if ever. */
export function lastAlertResolvedAt(core: Core, detector: string, subject: string): string | null {
  return (
    core.db
      .select({ at: max(securityAlerts.resolvedAt) })
      .from(securityAlerts)
      .where(and(eq(securityAlerts.detector, detector), eq(securityAlerts.subject, subject)))
      .get()?.at ?? null
  );
}

/** The latest `take` alerts by activity, optionally of one status. */
export function latestAlerts(core: Core, status: number | undefined, take: number): SecurityAlertRow[] {
  return core.db
    .select()
    .from(securityAlerts)
    .where(status === undefined ? undefined : eq(securityAlerts.status, status))
    .orderBy(desc(securityAlerts.lastSeenAt), desc(securityAlerts.id))
    .limit(take)
    .all();
}

/** Severity and status of every alert not resolved. */
export function unresolvedAlertLevels(core: Core) {
  return core.db
    .select({ severity: securityAlerts.severity, status: securityAlerts.status })
    .from(securityAlerts)
    .where(ne(securityAlerts.status, ALERT_STATUS.Resolved))
    .all();
}
