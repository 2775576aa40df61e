/**
 * The store of webhooks (its hand-written SQL and the only writer of its tables): the one file
 * a second backend rewrites for this domain (docs/architecture.md, "Seams").
 */
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import type { Core } from "../core";
import { perInstance } from "../platform/memo";
import { webhookAttempts, webhookDeliveries, webhooks, type AttemptRow, type DeliveryRow, type WebhookRow } from "./tables";
import { listParam, rowsParam } from "../platform/db/lists";

/** Queuing (queue.ts): run for every page and space event (and per webhook), so prepared once per instance. */
export const queueStatements = perInstance(({ sqlite }: Core) => ({
  enabledHooksOf: sqlite.query<{ id: string; events: string }, [string]>(
    "SELECT id, events FROM webhooks WHERE space_id = ? AND enabled = 1",
  ),
  spaceKey: sqlite.query<{ key: string }, [string]>("SELECT key FROM spaces WHERE id = ?"),
  // One row per [id, webhookId] of the JSON array ?5.
  insert: sqlite.query<never, [string, string, string, string, string]>(
    `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, payload, status, next_attempt_at, created_at, updated_at)
     SELECT r.id, r.webhookId, ?1, ?2, ?3, 'pending', ?4, ?4, ?4 FROM (${rowsParam("?5", ["id", "webhookId"])}) r WHERE true`,
  ),
}));

/** A delivery that is due, with what sending it needs of its webhook. */
export interface DueDelivery {
  id: string;
  payload: string;
  url: string;
  secret: string;
}

/**
 * A successful attempt as recordOutcomes hands it to the statements below, in one JSON array
 * of [attemptId, deliveryId, startedAt, statusCode, durationMs, snippet] rows.
 */
export type SucceededRow = [string, string, string, number | null, number, string | null];
const SUCCEEDED_COLUMNS = ["attemptId", "id", "startedAt", "code", "ms", "snippet"];

/**
 * Every attempt runs these (several per change), so they are prepared once per instance. The
 * delivery's look-up reads two columns, never its payload.
 */
export const outcomeStatements = perInstance(({ sqlite }: Core) => ({
  // The sender's batch (sender.ts): raw and prepared once, reading only what a send needs
  // (drizzle's select of both rows, built and mapped at each run, cost more than the query).
  due: sqlite.query<DueDelivery, [string, number]>(
    `SELECT d.id, d.payload, h.url, h.secret FROM webhook_deliveries d JOIN webhooks h ON h.id = d.webhook_id
      WHERE d.status IN ('pending', 'failed') AND d.next_attempt_at <= ? AND h.enabled = 1
      ORDER BY d.next_attempt_at, d.id LIMIT ?`,
  ),
  // Successful attempts, all of a flush in three statements (sender.ts, recordOutcomes): their
  // log lines, numbered after each delivery's attempts so far (a delivery gone meanwhile has
  // none), then the deliveries settled, then their webhooks' failure runs ended.
  succeededLines: sqlite.query<never, [string]>(
    `INSERT INTO webhook_attempts (id, delivery_id, attempt, started_at, status_code, error, duration_ms, response_snippet)
     SELECT j.attemptId, d.id, d.attempts + 1, j.startedAt, j.code, NULL, j.ms, j.snippet
       FROM (${rowsParam("?", SUCCEEDED_COLUMNS)}) j JOIN webhook_deliveries d ON d.id = j.id`,
  ),
  succeededSettle: sqlite.query<{ webhookId: string }, [string, string]>(
    `UPDATE webhook_deliveries SET attempts = attempts + 1, last_status_code = x.code, last_error = NULL, last_duration_ms = x.ms,
            last_response_snippet = x.snippet, updated_at = ?1, status = 'succeeded', next_attempt_at = NULL
       FROM (${rowsParam("?2", SUCCEEDED_COLUMNS)}) AS x
      WHERE webhook_deliveries.id = x.id
      RETURNING webhook_id AS webhookId`,
  ),
  succeededHooks: sqlite.query<never, [string]>(
    `UPDATE webhooks SET consecutive_failures = 0 WHERE id IN (${listParam("?")}) AND consecutive_failures <> 0`,
  ),
  delivery: sqlite.query<{ attempts: number; webhookId: string }, [string]>(
    "SELECT attempts, webhook_id AS webhookId FROM webhook_deliveries WHERE id = ?",
  ),
  attempt: sqlite.query<never, Record<string, string | number | null>>(
    "INSERT INTO webhook_attempts (id, delivery_id, attempt, started_at, status_code, error, duration_ms, " +
      "response_snippet) VALUES ($id, $deliveryId, $attempt, $startedAt, $statusCode, $error, $durationMs, $snippet)",
  ),
  // A failure moves on only a delivery still waiting (one abandoned meanwhile stays abandoned);
  // a success is recorded whatever happened meanwhile: the receiver has it.
  settle: sqlite.query<never, Record<string, string | number | null>>(
    "UPDATE webhook_deliveries SET attempts = $attempts, last_status_code = $statusCode, last_error = $error, " +
      "last_duration_ms = $durationMs, last_response_snippet = $snippet, updated_at = $updatedAt, status = $status, " +
      "next_attempt_at = $nextAttemptAt WHERE id = $id AND ($status = 'succeeded' OR status IN ('pending', 'failed'))",
  ),
  succeeded: sqlite.query<never, [string]>("UPDATE webhooks SET consecutive_failures = 0 WHERE id = ? AND consecutive_failures <> 0"),
  failed: sqlite.query<{ consecutiveFailures: number; enabled: number }, [string]>(
    "UPDATE webhooks SET consecutive_failures = consecutive_failures + 1 WHERE id = ? " +
      "RETURNING consecutive_failures AS consecutiveFailures, enabled",
  ),
}));

// The drizzle reads and writes of webhooks, deliveries and attempts (service.ts, redeliver.ts, sender.ts).

/** A space's webhooks, oldest first. */
export function hooksOfSpace(core: Pick<Core, "db">, spaceId: string): WebhookRow[] {
  return core.db.select().from(webhooks).where(eq(webhooks.spaceId, spaceId)).orderBy(webhooks.createdAt, webhooks.id).all();
}

export function webhookById(core: Pick<Core, "db">, id: string): WebhookRow | undefined {
  return core.db.select().from(webhooks).where(eq(webhooks.id, id)).get();
}

/** The space's webhook with that id (another space's is none). */
export function webhookInSpace(core: Pick<Core, "db">, spaceId: string, id: string): WebhookRow | undefined {
  return core.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.spaceId, spaceId)))
    .get();
}

export function insertWebhook(core: Pick<Core, "db">, row: typeof webhooks.$inferInsert): void {
  core.db.insert(webhooks).values(row).run();
}

/** Deletes the webhook (its deliveries and attempts go with it: foreign keys). */
export function deleteWebhookRow(core: Pick<Core, "db">, id: string): void {
  core.db.delete(webhooks).where(eq(webhooks.id, id)).run();
}

/** Switches a hook on (its failure run starts from zero) or off (`now`: since when). */
export function setHookEnabled(core: Pick<Core, "db">, id: string, enabled: boolean, now: string): void {
  if (enabled) core.db.update(webhooks).set({ enabled: true, consecutiveFailures: 0, disabledAt: null }).where(eq(webhooks.id, id)).run();
  else core.db.update(webhooks).set({ enabled: false, disabledAt: now }).where(eq(webhooks.id, id)).run();
}

/** Waiting deliveries of a hook switched off are abandoned: nothing sends them while it is off. */
export function abandonWaiting(core: Pick<Core, "db">, hookId: string, now: string): void {
  core.db
    .update(webhookDeliveries)
    .set({ status: "abandoned", nextAttemptAt: null, updatedAt: now })
    .where(and(eq(webhookDeliveries.webhookId, hookId), inArray(webhookDeliveries.status, ["pending", "failed"])))
    .run();
}

export function deliveryById(core: Pick<Core, "db">, id: string): DeliveryRow | undefined {
  return core.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).get();
}

/** The hook's delivery with that id (another hook's is none). */
export function deliveryOfHook(core: Pick<Core, "db">, hookId: string, id: string): DeliveryRow | undefined {
  return core.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.webhookId, hookId)))
    .get();
}

export function insertDelivery(core: Pick<Core, "db">, row: typeof webhookDeliveries.$inferInsert): void {
  core.db.insert(webhookDeliveries).values(row).run();
}

/** A hook's newest deliveries, newest first. */
export function recentDeliveries(core: Pick<Core, "db">, hookId: string, limit: number): DeliveryRow[] {
  return core.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, hookId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit)
    .all();
}

/** The attempts of these deliveries (at most a few hundred ids), in attempt order. */
export function attemptsOf(core: Pick<Core, "db">, deliveryIds: string[]): AttemptRow[] {
  return core.db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, deliveryIds))
    .orderBy(webhookAttempts.attempt)
    .all();
}

const finishedBefore = (before: string) =>
  and(inArray(webhookDeliveries.status, ["succeeded", "abandoned"]), lt(webhookDeliveries.updatedAt, before));

/** Whether any delivery finished (succeeded or abandoned) was last touched before `before`. */
export function hasFinishedBefore(core: Pick<Core, "db">, before: string): boolean {
  return core.db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(finishedBefore(before)).limit(1).get() !== undefined;
}

/** Drops the deliveries finished before `before`. */
export function dropFinishedBefore(core: Pick<Core, "db">, before: string): void {
  core.db.delete(webhookDeliveries).where(finishedBefore(before)).run();
}
