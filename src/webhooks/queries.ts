/**
 * The hand-written SQL of webhooks: the one file a second backend rewrites for this domain
 * (docs/architecture.md, "Seams").
 */
import type { Core } from "../core";
import { perInstance } from "../platform/memo";

/** Queuing (queue.ts): run for every page and space event (and per webhook), so prepared once per instance. */
export const queueStatements = perInstance((sqlite: Core["sqlite"]) => ({
  enabledHooksOf: sqlite.query<{ id: string; events: string }, [string]>("SELECT id, events FROM webhooks WHERE space_id = ? AND enabled = 1"),
  spaceKey: sqlite.query<{ key: string }, [string]>("SELECT key FROM spaces WHERE id = ?"),
  insert: sqlite.query<never, Record<string, string>>(
    "INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, payload, status, next_attempt_at, created_at, updated_at) VALUES ($id, $webhookId, $eventId, $eventType, $payload, 'pending', $now, $now, $now)",
  ),
}));

/**
 * Every attempt runs these (several per change), so they are prepared once per instance. The
 * delivery's look-up reads two columns, never its payload.
 */
export const outcomeStatements = perInstance((sqlite: Core["sqlite"]) => ({
  delivery: sqlite.query<{ attempts: number; webhookId: string }, [string]>("SELECT attempts, webhook_id AS webhookId FROM webhook_deliveries WHERE id = ?"),
  attempt: sqlite.query<never, Record<string, string | number | null>>(
    "INSERT INTO webhook_attempts (id, delivery_id, attempt, started_at, status_code, error, duration_ms, response_snippet) VALUES ($id, $deliveryId, $attempt, $startedAt, $statusCode, $error, $durationMs, $snippet)",
  ),
  // A failure moves on only a delivery still waiting (one abandoned meanwhile stays abandoned);
  // a success is recorded whatever happened meanwhile: the receiver has it.
  settle: sqlite.query<never, Record<string, string | number | null>>(
    "UPDATE webhook_deliveries SET attempts = $attempts, last_status_code = $statusCode, last_error = $error, last_duration_ms = $durationMs, last_response_snippet = $snippet, updated_at = $updatedAt, status = $status, next_attempt_at = $nextAttemptAt WHERE id = $id AND ($status = 'succeeded' OR status IN ('pending', 'failed'))",
  ),
  succeeded: sqlite.query<never, [string]>("UPDATE webhooks SET consecutive_failures = 0 WHERE id = ? AND consecutive_failures <> 0"),
  failed: sqlite.query<{ consecutiveFailures: number; enabled: number }, [string]>(
    "UPDATE webhooks SET consecutive_failures = consecutive_failures + 1 WHERE id = ? RETURNING consecutive_failures AS consecutiveFailures, enabled",
  ),
}));

