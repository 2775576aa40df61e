import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { AppError } from "../platform/errors";
import { formatIp, parseIp, unmapV4 } from "../platform/ip-ranges";
import { getSettings, type Settings } from "../settings/service";
import { accountById, updateLockCounters } from "../users/store/accounts";
import type { UserRow } from "../identity/caller";
import { noteFailure } from "./notices";
import {
  deleteFailurePair,
  deleteFailuresOf,
  failurePair,
  forgetOldFailures,
  recentFailures,
  restartRecentFailures,
  upsertFailurePair,
  type FailurePairRow,
} from "./store/failures";

/**
 * Lockout (docs/decisions.md, "Lockout"). Wrong passwords lock one account for one client address:
 * lockoutThreshold of them lock it for lockoutBaseSeconds, doubling with each further lock up
 * to lockoutMaxSeconds, so nobody can lock an account for everyone from one address. Only a
 * spread-out attack (lockoutAccountFailures from lockoutAccountAddresses addresses within
 * lockoutAccountWindowSeconds) locks the account for every address (users.lockedUntil, same
 * arithmetic). A success from an address clears that address's history.
 *
 * A locked sign-in is told so when the password is right. The wrong-password answer does not
 * change, but the lock still checks at most lockoutThreshold more passwords: after that every
 * password gets the wrong-password answer until the lock ends, or the "it is locked" answer
 * would turn the lock into an oracle with no limit.
 */
export type LockScope = "address" | "account";

export interface Lock {
  scope: LockScope;
  until: number;
  /** Wrong passwords the lock still checks (then it stops looking at passwords). */
  checksLeft: number;
}

/** How the password was given, for the audit log. */
export type Via = "sign_in" | "reauth" | "password_change";

/** An address's history is dropped a day after its last failure (also bounds the table). */
const FORGET_AFTER_MS = 86_400_000;

/**
 * One client address for limits and locks: IPv4 (also mapped into IPv6), or an IPv6 address's
 * /64, since one subscriber usually holds a whole /64 and could pick a fresh address per guess.
 */
export function addressKey(ip: string): string {
  const bytes = parseIp(ip);
  if (!bytes) return ip;
  const v4 = bytes.length === 4 ? bytes : unmapV4(bytes);
  if (v4) return formatIp(v4);
  const prefix = new Uint8Array(16);
  prefix.set(bytes.subarray(0, 8));
  return `${formatIp(prefix)}/64`;
}

export function lockDurationSeconds(lockNumber: number, base: number, max: number): number {
  return Math.min(base * 2 ** Math.max(0, lockNumber - 1), max);
}

type PairRow = FailurePairRow;

const pairOf = failurePair;

const freshUser = (core: Core, userId: string): UserRow | undefined => accountById(core, userId);

function lockOf(now: number, s: Settings, user: UserRow, pair: PairRow | undefined): Lock | null {
  // users.failedLogins counts the wrong passwords checked since the account-wide lock began.
  if (user.lockedUntil && Date.parse(user.lockedUntil) > now)
    return { scope: "account", until: Date.parse(user.lockedUntil), checksLeft: Math.max(0, s.lockoutThreshold - user.failedLogins) };
  if (pair?.lockedUntil && Date.parse(pair.lockedUntil) > now)
    return { scope: "address", until: Date.parse(pair.lockedUntil), checksLeft: Math.max(0, s.lockoutThreshold - pair.checkedWhileLocked) };
  return null;
}

/** The lock on this account for this address now, if any (the account-wide one first). */
export function currentLock(core: Core, userId: string, ip: string): Lock | null {
  const user = freshUser(core, userId);
  return user ? lockOf(core.clock.now(), getSettings(core), user, pairOf(core, userId, addressKey(ip))) : null;
}

const secondsLeft = (core: Core, lock: Lock) => Math.max(1, Math.ceil((lock.until - core.clock.now()) / 1000));
const inWords = (s: number) => (s < 120 ? `${s} second${s === 1 ? "" : "s"}` : `${Math.ceil(s / 60)} minutes`);

/** What a person who knows the password is told while it is locked. */
export function lockSentence(core: Core, lock: Lock): string {
  const what =
    lock.scope === "account"
      ? "This account is locked after too many wrong passwords from several addresses"
      : "This account is locked for sign-ins from your address after too many wrong passwords";
  return `${what}; try again in ${inWords(secondsLeft(core, lock))}.`;
}

/** 429 rate_limited with Retry-After: the catalogue's code for "wait, then try again". */
export function lockedError(core: Core, lock: Lock): AppError {
  const seconds = secondsLeft(core, lock);
  return new AppError("rate_limited", {
    detail: lockSentence(core, lock),
    headers: { "Retry-After": String(seconds) },
    extra: { retryAfter: seconds, lockedUntil: iso(lock.until), lockScope: lock.scope },
  });
}

function failedEvent(core: Core, userId: string, ip: string, via: Via, data: Record<string, unknown>): void {
  const session = via !== "sign_in";
  recordEvent(core, {
    type: "user.login_failed",
    targetType: "user",
    targetId: userId,
    spaceId: null,
    actorId: session ? userId : null,
    ip,
    data: { ...data, ...(session ? { via } : {}) },
  });
}

const scopeData = (lock: Lock) => (lock.scope === "account" ? { everyAddress: true } : {});

/** The right password refused because of a lock (someone who knows it is kept out): audited. */
export function recordLockedAttempt(core: Core, userId: string, ip: string, lock: Lock): void {
  core.tx(() =>
    failedEvent(core, userId, ip, "sign_in", { reason: "locked", lockedForSeconds: secondsLeft(core, lock), ...scopeData(lock) }),
  );
}

export interface Failure {
  /** The lock that applies to this address after the failure. */
  lock: Lock | null;
  /** Whether this failure started it. */
  lockedNow: boolean;
}

/**
 * Counts a wrong password. During a lock it uses up one of the lock's checks instead of
 * counting towards the next lock. Every one counts towards the notice at the next sign-in and,
 * outside an account-wide lock, with the other addresses' recent failures towards that lock.
 * Audited (user.login_failed) for sign-in; for a session's re-authentication or password
 * change only when it locks, since a refused change otherwise leaves no audit entry.
 */
export function recordFailure(core: Core, userId: string, ip: string, via: Via): Failure {
  const s = getSettings(core);
  const now = core.clock.now();
  const address = addressKey(ip);
  return core.tx(() => {
    forgetOld(core, userId, now);
    const user = freshUser(core, userId);
    if (!user) return { lock: null, lockedNow: false };
    noteFailure(core, userId, ip);
    const audit = (data: Record<string, unknown>, lockedNow = false) => {
      if (via === "sign_in" || lockedNow) failedEvent(core, userId, ip, via, { reason: "wrong_password", ...data });
    };

    const existing = lockOf(now, s, user, pairOf(core, userId, address));
    updateLockCounters(core, userId, { failedLogins: user.failedLogins + 1 });
    if (existing?.scope === "account") {
      audit({ locked: true, lockedForSeconds: secondsLeft(core, existing), duringLock: true, everyAddress: true });
      return { lock: { ...existing, checksLeft: existing.checksLeft - 1 }, lockedNow: false };
    }
    const addressLock = countForAddress(core, s, userId, address, existing !== null, now);
    const accountLock = maybeLockAccount(core, s, user, now);
    if (accountLock) {
      audit(
        { locked: true, lockedForSeconds: secondsLeft(core, accountLock.lock), everyAddress: true, addresses: accountLock.addresses },
        true,
      );
      core.log.warn("account locked for every address", { userId, addresses: accountLock.addresses });
      return { lock: accountLock.lock, lockedNow: true };
    }
    if (existing) {
      audit({ locked: true, lockedForSeconds: secondsLeft(core, existing), duringLock: true });
      return { lock: { ...existing, checksLeft: existing.checksLeft - 1 }, lockedNow: false };
    }
    if (!addressLock) {
      audit({ locked: false });
      return { lock: null, lockedNow: false };
    }
    audit({ locked: true, lockedForSeconds: secondsLeft(core, addressLock) }, true);
    core.log.warn("account locked for one address", { userId, address });
    return { lock: addressLock, lockedNow: true };
  });
}

/**
 * This address's share: its recent count, and outside its lock the count towards the next
 * one (lockoutThreshold of them lock it); during its lock, one of the lock's checks.
 */
function countForAddress(core: Core, s: Settings, userId: string, address: string, locked: boolean, now: number): Lock | null {
  const pair = pairOf(core, userId, address);
  const newWindow = !pair || now - Date.parse(pair.recentSince) >= s.lockoutAccountWindowSeconds * 1000;
  const row = {
    failures: (pair?.failures ?? 0) + (locked ? 0 : 1),
    lockouts: pair?.lockouts ?? 0,
    lockedUntil: pair?.lockedUntil ?? null,
    checkedWhileLocked: (pair?.checkedWhileLocked ?? 0) + (locked ? 1 : 0),
    recent: newWindow ? 1 : pair.recent + 1,
    recentSince: newWindow ? iso(now) : pair.recentSince,
    lastFailureAt: iso(now),
  };
  let lock: Lock | null = null;
  if (row.failures >= s.lockoutThreshold) {
    // The count starts again after each lock; the number of locks doubles the next one.
    row.lockouts++;
    const until = now + lockDurationSeconds(row.lockouts, s.lockoutBaseSeconds, s.lockoutMaxSeconds) * 1000;
    Object.assign(row, { failures: 0, checkedWhileLocked: 0, lockedUntil: iso(until) });
    lock = { scope: "address", until, checksLeft: s.lockoutThreshold };
  }
  upsertFailurePair(core, userId, address, row);
  return lock;
}

/** The account-wide lock, on evidence of a spread-out attack only. */
function maybeLockAccount(core: Core, s: Settings, user: UserRow, now: number): { lock: Lock; addresses: number } | null {
  const since = iso(now - s.lockoutAccountWindowSeconds * 1000);
  const recent = recentFailures(core, user.id, since);
  if (!recent || recent.failures < s.lockoutAccountFailures || recent.addresses < s.lockoutAccountAddresses) return null;
  const lockouts = user.lockouts + 1;
  const until = now + lockDurationSeconds(lockouts, s.lockoutBaseSeconds, s.lockoutMaxSeconds) * 1000;
  updateLockCounters(core, user.id, { lockouts, lockedUntil: iso(until), failedLogins: 0 });
  // The evidence has been acted on: counting starts again, as it does after an address's lock.
  restartRecentFailures(core, user.id);
  return { lock: { scope: "account", until, checksLeft: s.lockoutThreshold }, addresses: recent.addresses };
}

function forgetOld(core: Core, userId: string, now: number): void {
  forgetOldFailures(core, userId, iso(now - FORGET_AFTER_MS), iso(now));
}

/** Whether the account-wide counters hold anything (users.failedLogins, lockouts, lockedUntil). */
const accountCounted = (user: UserRow | undefined) =>
  user !== undefined && (user.failedLogins !== 0 || user.lockouts !== 0 || user.lockedUntil !== null);

const resetAccountCounters = (core: Core, userId: string) =>
  updateLockCounters(core, userId, { failedLogins: 0, lockouts: 0, lockedUntil: null });

/** The password was right: this address's history goes, and the account-wide counters. */
export function clearFailures(core: Core, userId: string, ip: string): void {
  const address = addressKey(ip);
  if (!accountCounted(freshUser(core, userId)) && !pairOf(core, userId, address)) return;
  core.tx(() => {
    deleteFailurePair(core, userId, address);
    resetAccountCounters(core, userId);
  });
}

/**
 * Every address's history and the account-wide lock go (a password reset by whoever runs the
 * server: the guesses were against a password that no longer exists). Answers whether there
 * was anything to clear. The notice of wrong passwords stays: the owner is still told.
 */
export function clearAllFailures(core: Core, userId: string): boolean {
  return core.tx(() => {
    const pairs = deleteFailuresOf(core, userId);
    const counted = accountCounted(freshUser(core, userId));
    if (counted) resetAccountCounters(core, userId);
    return pairs > 0 || counted;
  });
}
