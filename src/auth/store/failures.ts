/**
 * The sign-in lock's store: the only module that writes `sign_in_failures` (one row per account
 * and client address) and `sign_in_notices` (what the owner is told at their next sign-in).
 */
import { and, count, eq, gt, isNull, lt, or, sum } from "drizzle-orm";
import type { Core } from "../../core";
import { users } from "../../users/tables";
import { signInFailures, signInNotices } from "../tables";

export type FailurePairRow = typeof signInFailures.$inferSelect;
export type FailurePairCounts = Omit<FailurePairRow, "userId" | "address">;

export function failurePair(core: Core, userId: string, address: string): FailurePairRow | undefined {
  return core.db
    .select()
    .from(signInFailures)
    .where(and(eq(signInFailures.userId, userId), eq(signInFailures.address, address)))
    .get();
}

export function upsertFailurePair(core: Core, userId: string, address: string, row: FailurePairCounts): void {
  core.db
    .insert(signInFailures)
    .values({ userId, address, ...row })
    .onConflictDoUpdate({ target: [signInFailures.userId, signInFailures.address], set: row })
    .run();
}

/** Wrong passwords counted since `since` over the account's addresses, and how many addresses. */
export function recentFailures(core: Core, userId: string, since: string) {
  return core.db
    .select({ failures: sum(signInFailures.recent).mapWith(Number), addresses: count() })
    .from(signInFailures)
    .where(and(eq(signInFailures.userId, userId), gt(signInFailures.recentSince, since), gt(signInFailures.recent, 0)))
    .get();
}

/** The evidence of an account-wide lock has been acted on: every address's recent count restarts. */
export function restartRecentFailures(core: Core, userId: string): void {
  core.db.update(signInFailures).set({ recent: 0 }).where(eq(signInFailures.userId, userId)).run();
}

/** Forgets the account's pairs last failed before `before` and not locked at `now`. */
export function forgetOldFailures(core: Core, userId: string, before: string, now: string): void {
  core.db
    .delete(signInFailures)
    .where(
      and(
        eq(signInFailures.userId, userId),
        lt(signInFailures.lastFailureAt, before),
        or(isNull(signInFailures.lockedUntil), lt(signInFailures.lockedUntil, now)),
      ),
    )
    .run();
}

export function deleteFailurePair(core: Core, userId: string, address: string): void {
  core.db
    .delete(signInFailures)
    .where(and(eq(signInFailures.userId, userId), eq(signInFailures.address, address)))
    .run();
}

/** Deletes every pair of the account; answers how many went. */
export function deleteFailuresOf(core: Core, userId: string): number {
  return core.db.delete(signInFailures).where(eq(signInFailures.userId, userId)).returning({ address: signInFailures.address }).all()
    .length;
}

export type NoticeRow = typeof signInNotices.$inferSelect;

export function noticeOf(core: Core, userId: string): NoticeRow | undefined {
  return core.db.select().from(signInNotices).where(eq(signInNotices.userId, userId)).get();
}

/** Writes the account's notice (the count is the new total: 1 when there was none). */
export function upsertNotice(core: Core, row: NoticeRow): void {
  const { userId: _, ...set } = row;
  core.db.insert(signInNotices).values(row).onConflictDoUpdate({ target: signInNotices.userId, set }).run();
}

/** Removes the account's notice and answers it (a notice is shown once). */
export function takeNoticeRow(core: Core, userId: string): NoticeRow | undefined {
  return core.db.delete(signInNotices).where(eq(signInNotices.userId, userId)).returning().get();
}

/** Locks in force at `now`: per account and address, and account-wide (security's overview). */
export function locksInForce(core: Core, now: string) {
  const byAddress = core.db
    .select({
      userId: signInFailures.userId,
      email: users.email,
      displayName: users.displayName,
      address: signInFailures.address,
      until: signInFailures.lockedUntil,
    })
    .from(signInFailures)
    .innerJoin(users, eq(users.id, signInFailures.userId))
    .where(gt(signInFailures.lockedUntil, now))
    .all();
  const everyAddress = core.db
    .select({ userId: users.id, email: users.email, displayName: users.displayName, until: users.lockedUntil })
    .from(users)
    .where(gt(users.lockedUntil, now))
    .all();
  return { byAddress, everyAddress };
}
