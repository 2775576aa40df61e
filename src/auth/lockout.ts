import { eq } from "drizzle-orm";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { getSettings } from "../settings/service";
import { users } from "../users/tables";
import type { UserRow } from "./caller";

/**
 * Per-account lockout (SPEC.md §8): after lockoutThreshold failures the account is locked for
 * lockoutBaseSeconds, doubling with each further lock up to lockoutMaxSeconds. A success
 * clears it all. A locked account answers exactly like a wrong password.
 */
export function isLocked(core: Core, user: UserRow): boolean {
  return user.lockedUntil !== null && Date.parse(user.lockedUntil) > core.clock.now();
}

export function lockDurationSeconds(lockNumber: number, base: number, max: number): number {
  return Math.min(base * 2 ** Math.max(0, lockNumber - 1), max);
}

/** Counts a wrong password and records it (user.login_failed) for the audit log. */
export function recordFailure(core: Core, user: UserRow, ip: string): void {
  const s = getSettings(core);
  core.tx(() => {
    const fresh = core.db.select().from(users).where(eq(users.id, user.id)).get();
    if (!fresh || isLocked(core, fresh)) return;
    const failed = fresh.failedLogins + 1;
    const failedEvent = (data: Record<string, unknown>) =>
      recordEvent(core, { type: "user.login_failed", targetType: "user", targetId: user.id, spaceId: null, actorId: null, ip, data: { reason: "wrong_password", ...data } });
    if (failed < s.lockoutThreshold) {
      core.db.update(users).set({ failedLogins: failed }).where(eq(users.id, user.id)).run();
      failedEvent({ locked: false });
      return;
    }
    const lockouts = fresh.lockouts + 1;
    const seconds = lockDurationSeconds(lockouts, s.lockoutBaseSeconds, s.lockoutMaxSeconds);
    core.db
      .update(users)
      .set({ failedLogins: 0, lockouts, lockedUntil: iso(core.clock.now() + seconds * 1000) })
      .where(eq(users.id, user.id))
      .run();
    failedEvent({ locked: true, lockedForSeconds: seconds });
    core.log.warn("account locked", { userId: user.id, seconds });
  });
}

export function clearFailures(core: Core, user: UserRow): void {
  if (user.failedLogins === 0 && user.lockouts === 0 && user.lockedUntil === null) return;
  core.tx(() => core.db.update(users).set({ failedLogins: 0, lockouts: 0, lockedUntil: null }).where(eq(users.id, user.id)).run());
}
