/**
 * The notifications' upkeep, a job on the hourly schedule of the jobs module (and once at each
 * start, catching up after downtime): API tokens about to expire (the owner is warned
 * a week before: docs/decisions.md, "Watches and notifications") and old read entries cleared.
 * Tests call warnExpiringTokens / pruneReadNotifications directly after moving the clock.
 */
import type { Core } from "../core";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { upkeepStatements as statements } from "./store";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** How long before its expiry a token's owner is warned. */
export const TOKEN_WARNING_MS = 7 * DAY;
/** Read entries older than this are deleted; unread ones stay until read. */
export const KEEP_READ_MS = 90 * DAY;

/**
 * Warns the owner of every live token that expires within a week, once per token. A token that
 * was made to last a week or less is not announced: its owner chose that date days ago at most.
 * Answers how many warnings it wrote.
 */
export function warnExpiringTokens(core: Core): number {
  const now = core.clock.now();
  const s = statements(core);
  return core.bookkeeping(() => {
    let written = 0;
    for (const t of s.expiring.all(iso(now), iso(now + TOKEN_WARNING_MS))) {
      if (Date.parse(t.expiresAt) - Date.parse(t.createdAt) <= TOKEN_WARNING_MS) continue;
      const details = { name: t.name, prefix: t.prefix, expiresAt: t.expiresAt };
      written += s.warn.run(newId(), t.userId, t.id, JSON.stringify(details), iso(now)).changes;
    }
    return written;
  });
}

/** Deletes entries read more than KEEP_READ_MS ago; answers how many. */
export function pruneReadNotifications(core: Core): number {
  const cutoff = iso(core.clock.now() - KEEP_READ_MS);
  return core.bookkeeping(() => statements(core).prune.run(cutoff).changes);
}

const UPKEEP = "notifications.upkeep";

/** Called once from openInstance: the job and its hourly schedule (run by the server's worker). */
export function installNotificationSchedule(core: Core): void {
  core.jobs.define(UPKEEP, {
    maxAttempts: 3,
    run() {
      warnExpiringTokens(core);
      pruneReadNotifications(core);
    },
  });
  core.jobs.schedule(UPKEEP, "0 * * * *", UPKEEP);
}

/** The server runs the upkeep once at start, catching up on the hours it was down. */
export function catchUpNotifications(core: Core): void {
  core.jobs.enqueue(UPKEEP, null, { key: `schedule:${UPKEEP}` });
}
