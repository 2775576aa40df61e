/**
 * Sending: every delivery row that is due goes out through the outbound guard, signed
 * (signer.ts), and each attempt is logged. Nothing here runs inside a change's transaction: the
 * rows were queued there (queue.ts) and are acted on after the commit.
 *
 * When:
 *   - right after the commit that queued them: the recorder schedules a kick (core.afterCommit:
 *     never before the rows are durable, never after a rollback);
 *   - every 5 seconds (a task of the scheduler), for retries that have come due;
 *   - at start-up, for what a stop or a crash left behind (the rows are in the database).
 * Runs never overlap (one chain per instance), so one process never sends a row twice at once;
 * the price is that a new delivery waits for the run in progress (8 attempts at a time, each
 * at most 10 s).
 *
 * Retries: after a failed attempt the next waits 5 s, 30 s, 2 min, 10 min, then 1 h, 1 h, 1 h;
 * the 8th failed attempt (about 3 h 13 min after the change) abandons the delivery. 20 failed
 * attempts in a row for one webhook (across its deliveries) switch it off, abandon its
 * waiting deliveries and record a webhook.disabled event for the space admins.
 */
import type { Core } from "../core";
import { onEventRecorded, recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { perInstance } from "../platform/memo";
import { newId } from "../platform/crypto";
import { guardedFetch } from "../platform/outbound";
import {
  abandonWaiting,
  dropFinishedBefore,
  hasFinishedBefore,
  outcomeStatements,
  setHookEnabled,
  webhookById,
  type DueDelivery,
  type SucceededRow,
} from "./store";
import { queueDeliveries } from "./queue";
import { deliveryHeaders } from "./signer";
import type { WebhookRow } from "./tables";

/** The wait before attempt n+1 after attempt n failed. */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000, 3_600_000, 3_600_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const DISABLE_AFTER_FAILURES = 20;
export const ATTEMPT_TIMEOUT_MS = 10_000;
export const SNIPPET_BYTES = 1024;
/** Finished deliveries (and their attempts) are kept this long in the log. */
export const KEEP_FINISHED_MS = 30 * 24 * 3_600_000;
const TICK_MS = 5_000;
const BATCH = 50;
const MAX_BATCHES_PER_RUN = 10;
const CONCURRENCY = 8;

interface SenderState {
  /** The run in progress (or the last one). */
  current: Promise<void>;
  /** A run queued behind it and not started yet: later callers share it. */
  next: Promise<void> | null;
  kickQueued: boolean;
  closed: boolean;
  lastPruneAt: number;
  /** Attempts made and not yet recorded (see recordOutcomes). */
  outcomes: Array<{ deliveryId: string; outcome: Outcome }>;
  flushQueued: boolean;
}

const stateOf = perInstance(
  (_core: Core): SenderState => ({
    current: Promise.resolve(),
    next: null,
    kickQueued: false,
    closed: false,
    lastPruneAt: -Infinity,
    outcomes: [],
    flushQueued: false,
  }),
);

/**
 * Called once from openInstance: the recorder, the retries' task, and a catch-up run (`catchUp` false:
 * left to the caller, which kicks once it is ready: the server, just after listening).
 */
export function installWebhooks(core: Core, catchUp = true): void {
  const state = stateOf(core);
  onEventRecorded(core, (c, event, input) => {
    if (queueDeliveries(c, event, input) > 0) kick(core);
  });
  // Retries that have come due; at shutdown, what was attempted is recorded.
  core.scheduler.every("webhooks.retries", TICK_MS, () => runDueDeliveries(core), {
    onStop() {
      state.closed = true;
      recordOutcomes(core, state);
    },
  });
  if (catchUp) kick(core);
}

/**
 * Sends what is due once the current synchronous work (the committing transaction) is done;
 * also for deliveries queued by hand (redeliver.ts), which go out at once like first attempts.
 */
export function kick(core: Core): void {
  const state = stateOf(core);
  core.afterCommit(() => {
    if (state.kickQueued) return;
    state.kickQueued = true;
    queueMicrotask(() => {
      state.kickQueued = false;
      void runDueDeliveries(core);
    });
  });
}

/**
 * Sends every delivery due now (nextAttemptAt ≤ the clock) and resolves when done; tests call
 * it after moving the clock. Waits for a run in progress first, never overlaps one.
 */
export function runDueDeliveries(core: Core): Promise<void> {
  const state = stateOf(core);
  if (state.next) return state.next;
  const next = state.current.then(async () => {
    state.next = null;
    try {
      await sendDue(core, state);
    } catch (err) {
      if (!state.closed) core.log.error("webhook run failed", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    }
  });
  state.next = next;
  state.current = next;
  return next;
}

async function sendDue(core: Core, state: SenderState): Promise<void> {
  if (state.closed) return;
  prune(core, state);
  const tried = new Set<string>();
  for (let batch = 0; batch < MAX_BATCHES_PER_RUN && !state.closed; batch++) {
    // Only committed rows go out: a group of writes still open (the timer fired mid-burst) may
    // hold deliveries that could yet be lost.
    while (core.commits.pending()) await core.commits.durable();
    const read = outcomeStatements(core).due.all(iso(core.clock.now()), BATCH);
    const due = read.filter((r) => !tried.has(r.id));
    if (due.length === 0) return;
    for (const r of due) tried.add(r.id);
    // CONCURRENCY workers take the next row as soon as they are free: one slow receiver
    // holds up one worker, not the whole batch.
    let next = 0;
    const worker = async () => {
      while (next < due.length && !state.closed) {
        await attempt(core, state, due[next++]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, worker));
    // The next batch reads the rows' states: everything attempted so far is recorded first.
    recordOutcomes(core, state);
    // A short batch was everything due when it was read; a delivery queued since then has
    // kicked a run of its own (queued behind this one), so no read to find nothing.
    if (read.length < BATCH) return;
  }
  // MAX_BATCHES_PER_RUN sent and perhaps more due (a backlog after a burst of changes): go on
  // in a new run at once rather than at the next tick, which left it draining 500 per 5 s.
  if (!state.closed) kick(core);
}

interface Outcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  snippet: string | null;
  durationMs: number;
  startedAt: string;
}

async function attempt(core: Core, state: SenderState, delivery: DueDelivery): Promise<void> {
  const startedAtMs = core.clock.now();
  const t0 = performance.now();
  const outcome: Outcome = { ok: false, statusCode: null, error: null, snippet: null, durationMs: 0, startedAt: iso(startedAtMs) };
  try {
    const res = await guardedFetch(
      delivery.url,
      { method: "POST", headers: deliveryHeaders(delivery.secret, delivery.id, startedAtMs, delivery.payload), body: delivery.payload },
      // Redirects are not followed: after a 301/302 the payload would arrive as a bodiless GET
      // (or not at all) while the attempt counted as delivered. A 3xx is a failed attempt that
      // names where it pointed, so the admin can fix the URL; the usual retries apply.
      { allow: core.config.outboundAllow, timeoutMs: ATTEMPT_TIMEOUT_MS, maxBytes: SNIPPET_BYTES, followRedirects: false },
    );
    outcome.statusCode = res.status;
    outcome.ok = res.status >= 200 && res.status < 300;
    outcome.snippet = snippetText.decode(res.body);
    if (!outcome.ok) outcome.error = failureText(res.status, res.headers.get("location"));
  } catch (err) {
    outcome.error = err instanceof Error ? err.message : String(err);
  }
  outcome.durationMs = Math.round(performance.now() - t0);
  // Shut down meanwhile: the row stays due and is sent again after the restart.
  if (state.closed) return;
  state.outcomes.push({ deliveryId: delivery.id, outcome });
  if (!state.flushQueued) {
    state.flushQueued = true;
    setImmediate(() => recordOutcomes(core, state));
  }
}

const snippetText = new TextDecoder();
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Why a non-2xx answer failed; a redirect names its Location (cut short: it is the receiver's text). */
function failureText(status: number, location: string | null): string {
  if (!REDIRECTS.has(status)) return `answered HTTP ${status}`;
  const where = location ? `to ${location.slice(0, 500)}` : "without a Location";
  return `answered HTTP ${status}, a redirect ${where}; webhook deliveries do not follow redirects (use the final URL)`;
}

/**
 * Records the attempts made since the last time, in ONE transaction: the attempts that finish
 * together (8 at a time, and each change usually has several webhooks) share a commit instead
 * of paying one each, which cost more than the change that caused them. A crash before this
 * runs loses only the log lines: the rows are still due, and are sent again (Standard Webhooks
 * receivers de-duplicate by webhook-id).
 */
function recordOutcomes(core: Core, state: SenderState): void {
  state.flushQueued = false;
  const done = state.outcomes.splice(0);
  if (done.length === 0) return;
  try {
    core.bookkeeping(() => {
      // Successes (nearly all of them) are recorded together, failures one by one in their
      // order; the successes before a failure first, so a webhook's run of failures counts
      // in the order the attempts finished.
      let succeeded: SucceededRow[] = [];
      for (const { deliveryId, outcome } of done) {
        if (outcome.ok) {
          succeeded.push([newId(), deliveryId, outcome.startedAt, outcome.statusCode, outcome.durationMs, outcome.snippet]);
          continue;
        }
        recordSucceeded(core, succeeded);
        succeeded = [];
        recordOutcome(core, deliveryId, outcome);
      }
      recordSucceeded(core, succeeded);
    });
  } catch (err) {
    // Nothing recorded: the rows stay due and are tried again.
    core.log.error("webhook attempts not recorded", { deliveries: done.length, error: err instanceof Error ? err.message : String(err) });
  }
}

/**
 * Successful attempts, in three statements however many (inside recordOutcomes' transaction):
 * what recordOutcome does for one, for all. A delivery attempted twice in one flush (not
 * expected: a run records its batch before it reads the next) goes one by one, so each
 * attempt gets its own number.
 */
function recordSucceeded(core: Core, rows: SucceededRow[]): void {
  if (rows.length === 0) return;
  if (new Set(rows.map((r) => r[1])).size !== rows.length) {
    for (const [, deliveryId, startedAt, statusCode, durationMs, snippet] of rows)
      recordOutcome(core, deliveryId, { ok: true, statusCode, error: null, snippet, durationMs, startedAt });
    return;
  }
  const q = outcomeStatements(core);
  const json = JSON.stringify(rows);
  q.succeededLines.run(json);
  const hooks = new Set(q.succeededSettle.all(iso(core.clock.now()), json).map((r) => r.webhookId));
  if (hooks.size) q.succeededHooks.run(JSON.stringify([...hooks]));
}

/** The attempt's log line, the delivery's state, the webhook's failure count (inside recordOutcomes' transaction). */
function recordOutcome(core: Core, deliveryId: string, o: Outcome): void {
  const q = outcomeStatements(core);
  // 1. The delivery may have gone meanwhile (webhook or space deleted): nothing to record.
  const delivery = q.delivery.get(deliveryId);
  if (!delivery) return;
  const n = delivery.attempts + 1;
  const now = core.clock.now();
  const line = { statusCode: o.statusCode, error: o.error, durationMs: o.durationMs, snippet: o.snippet };
  q.attempt.run({ id: newId(), deliveryId, attempt: n, startedAt: o.startedAt, ...line });
  // 2. Success: done, and the webhook's failure run is over.
  // 3. Failure: retry later, or give up after the last attempt.
  const giveUp = !o.ok && n >= MAX_ATTEMPTS;
  const status = o.ok ? "succeeded" : giveUp ? "abandoned" : "failed";
  const nextAttemptAt = o.ok || giveUp ? null : iso(now + RETRY_DELAYS_MS[n - 1]);
  q.settle.run({ id: deliveryId, attempts: n, ...line, updatedAt: iso(now), status, nextAttemptAt });
  if (o.ok) {
    q.succeeded.run(delivery.webhookId);
    return;
  }
  // 4. Count the failure against the webhook; the 20th in a row switches it off.
  const hook = q.failed.get(delivery.webhookId);
  if (hook && hook.enabled && hook.consecutiveFailures >= DISABLE_AFTER_FAILURES)
    disableWebhook(core, webhookById(core, delivery.webhookId)!, o.error);
}

/**
 * Switches a failing webhook off. Its waiting deliveries are abandoned (they would only fail
 * again), and a webhook.disabled event is recorded, from which the notifications module tells
 * the space admins.
 */
function disableWebhook(core: Core, hook: WebhookRow, lastError: string | null): void {
  const now = iso(core.clock.now());
  setHookEnabled(core, hook.id, false, now);
  abandonWaiting(core, hook.id, now);
  recordEvent(core, {
    type: "webhook.disabled",
    targetType: "webhook",
    targetId: hook.id,
    spaceId: hook.spaceId,
    actorId: null,
    data: { url: hook.url, consecutiveFailures: hook.consecutiveFailures, lastError },
  });
}

/** Drops finished deliveries older than KEEP_FINISHED_MS, at most once an hour. */
function prune(core: Core, state: SenderState): void {
  const now = core.clock.now();
  if (now - state.lastPruneAt < 3_600_000) return;
  state.lastPruneAt = now;
  const before = iso(now - KEEP_FINISHED_MS);
  // Read first: an idle server with nothing to prune opens no write transaction.
  if (!hasFinishedBefore(core, before)) return;
  core.bookkeeping(() => dropFinishedBefore(core, before));
}
