import type { Core } from "../core";
import { iso } from "../platform/clock";
import { noticeOf, takeNoticeRow, upsertNotice } from "./store/failures";

/** What the login answer tells the owner about wrong passwords since their previous sign-in. */
export interface FailedSignIns {
  count: number;
  /** Client addresses, newest first. */
  addresses: string[];
  lastAt: string;
}

const MAX_ADDRESSES = 10;

/**
 * Adds one wrong password to the account's notice. Kept apart from the lock counters
 * (signInFailures), which are cleared and forgotten on their own schedule: the owner is told
 * about every wrong password until they have seen it once.
 */
export function noteFailure(core: Core, userId: string, ip: string): void {
  const now = iso(core.clock.now());
  core.tx(() => {
    const row = noticeOf(core, userId);
    const addresses = [ip, ...(row?.addresses ?? []).filter((a) => a !== ip)].slice(0, MAX_ADDRESSES);
    upsertNotice(core, { userId, count: (row?.count ?? 0) + 1, addresses, lastAt: now });
  });
}

/** The notice for a successful sign-in, removed as it is read: shown once. */
export function takeNotice(core: Core, userId: string): FailedSignIns | null {
  return core.tx(() => {
    const row = takeNoticeRow(core, userId);
    return row ? { count: row.count, addresses: row.addresses, lastAt: row.lastAt } : null;
  });
}
