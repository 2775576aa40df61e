import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { AppError, invalid } from "../platform/errors";
import { getSettings } from "../settings/service";
import { findUserWithRoleByEmail, USER_STATUS } from "../users/service";
import { updateAccount } from "../users/store/accounts";
import type { SessionRow, UserCaller, UserRow } from "../identity/caller";
import { limiters } from "./limits";
import {
  addressKey,
  clearAllFailures,
  clearFailures,
  currentLock,
  lockedError,
  lockSentence,
  recordFailure,
  recordLockedAttempt,
  type Via,
} from "./lockout";
import { takeNotice } from "./notices";
import { checkNewPassword, hashPassword, verifyAgainstNothing, verifyPassword } from "../identity/password";
import { createSession, deleteUserSessions, endSession, hasRecentReauth, rotateSession, type NewSession } from "./sessions";

export interface LoginInput {
  email: string;
  password: string;
  ip: string;
  userAgent: string | null;
}

/**
 * 429 once an address has had loginRateLimitPerMinute wrong passwords this minute (sign-in,
 * re-authentication and password changes together), before any password is checked.
 */
function refuseBusyAddress(core: Core, ip: string): void {
  const wait = limiters(core).passwordFailures.wait(addressKey(ip), getSettings(core).loginRateLimitPerMinute);
  if (wait === null) return;
  throw new AppError("rate_limited", {
    detail: `Too many wrong passwords from your address; try again in ${wait} seconds.`,
    headers: { "Retry-After": String(wait) },
    extra: { retryAfter: wait },
  });
}

const failedFrom = (core: Core, ip: string) => void limiters(core).passwordFailures.count(addressKey(ip));

/**
 * Sign-in:
 * 1. an address over its limit of wrong passwords gets 429, whatever the password;
 * 2. unknown e-mail and wrong password answer the same 401, after the same argon2 work, locked
 *    or not;
 * 3. the right password while this address (or, after a spread-out attack, every address) is
 *    locked out of the account gets 429 saying so, with Retry-After, unless the lock has used up
 *    its checks (lockout.ts);
 * 4. a wrong password counts towards the locks; a right one clears this address's history;
 * 5. a suspended account is refused only after the right password;
 * 6. the answer tells the owner, once, about wrong passwords since their previous sign-in.
 */
export async function login(core: Core, input: LoginInput) {
  refuseBusyAddress(core, input.ip);
  const found = findUserWithRoleByEmail(core, input.email);
  if (!found) {
    await verifyAgainstNothing(input.password);
    failedFrom(core, input.ip);
    throw new AppError("invalid_credentials");
  }
  const ok = await verifyPassword(input.password, found.user.passwordHash);
  const lock = currentLock(core, found.user.id, input.ip);
  if (lock && lock.checksLeft > 0 && ok) {
    recordLockedAttempt(core, found.user.id, input.ip, lock);
    throw lockedError(core, lock);
  }
  if (!ok || lock) {
    // A lock with no checks left does not look at the password (it was verified for timing only).
    if (!lock || lock.checksLeft > 0) recordFailure(core, found.user.id, input.ip, "sign_in");
    failedFrom(core, input.ip);
    throw new AppError("invalid_credentials");
  }
  if (found.user.status !== USER_STATUS.Active)
    throw new AppError("forbidden", { detail: "This account is suspended. Ask an administrator to reactivate it." });
  return core.tx(() => {
    clearFailures(core, found.user.id, input.ip);
    const failedSignInsSinceLast = takeNotice(core, found.user.id);
    const session = createSession(core, found.user.id, { ip: input.ip, userAgent: input.userAgent, reauthAt: core.clock.now() });
    recordEvent(core, {
      type: "user.login",
      targetType: "user",
      targetId: found.user.id,
      spaceId: null,
      actorId: found.user.id,
      ip: input.ip,
      data: { sessionId: session.row.handle },
    });
    return { ...found, session, failedSignInsSinceLast };
  });
}

/**
 * Destructive actions need a password or code proved in the last 5 minutes (docs/permissions.md,
 * "Re-authentication").
 */
export function requireReauth(core: Core, caller: UserCaller): void {
  if (!caller.session || !hasRecentReauth(core, caller.session)) {
    throw new AppError("reauth_required", {
      detail: caller.session
        ? "Confirm your password (POST /api/auth/reauth), then try again."
        : "API tokens cannot confirm a password; do this from a browser session.",
    });
  }
}

type SessionCaller = UserCaller & { session: SessionRow };

/**
 * The password asked for inside a session (re-authentication, password change), under the
 * sign-in rules: the same per-address limit, locks and failure count, so that a stolen or
 * unattended session is no way around them. A locked account is refused without looking at the
 * password; the wrong password that locks it also ends the session (401 unauthenticated).
 */
async function provePassword(core: Core, caller: SessionCaller, password: string, field: string, via: Via): Promise<void> {
  // No password at all (a client that sent only a code) is not a guess: it does not count.
  if (password === "") throw invalid(field, "is required");
  refuseBusyAddress(core, caller.ip);
  const lock = currentLock(core, caller.user.id, caller.ip);
  if (lock) throw lockedError(core, lock);
  if (await verifyPassword(password, caller.user.passwordHash)) {
    clearFailures(core, caller.user.id, caller.ip);
    return;
  }
  failedFrom(core, caller.ip);
  const failure = core.tx(() => {
    const f = recordFailure(core, caller.user.id, caller.ip, via);
    if (f.lockedNow) endSession(core, caller, "too_many_wrong_passwords");
    return f;
  });
  if (failure.lockedNow && failure.lock) {
    throw new AppError("unauthenticated", {
      detail: `Too many wrong passwords: this session has been signed out. ${lockSentence(core, failure.lock)}`,
    });
  }
  throw invalid(field, "is not correct");
}

/**
 * A password asked for in the request itself (a restore, its undo): proved under the sign-in
 * rules like any other, the session left as it is. `caller` must be a session (requireSession).
 */
export async function confirmPassword(core: Core, caller: SessionCaller, password: string, field = "password"): Promise<void> {
  await provePassword(core, caller, password, field, "reauth");
}

/** POST /api/auth/reauth: proves the password and starts a fresh session id with a new window. */
export async function reauthenticate(core: Core, caller: SessionCaller, password: string): Promise<NewSession> {
  await provePassword(core, caller, password, "password", "reauth");
  return rotateSession(core, caller.session, core.clock.now());
}

/**
 * PUT /api/auth/me/password: checks the current password, stores the new one, signs out every
 * other session and gives this one a fresh id.
 */
export async function changePassword(core: Core, caller: SessionCaller, currentPassword: string, newPassword: string): Promise<NewSession> {
  await provePassword(core, caller, currentPassword, "currentPassword", "password_change");
  await checkNewPassword(newPassword, "newPassword");
  if (newPassword === currentPassword) throw invalid("newPassword", "must differ from the current password");
  const hash = await hashPassword(newPassword);
  return core.tx(() => {
    updateAccount(core, caller.user.id, { passwordHash: hash }, iso(core.clock.now()));
    const signedOut = deleteUserSessions(core, caller.user.id, caller.session.id);
    recordEvent(core, {
      type: "user.password_changed",
      targetType: "user",
      targetId: caller.user.id,
      spaceId: null,
      actorId: caller.user.id,
      ip: caller.ip,
      data: { otherSessionsSignedOut: signedOut },
    });
    return rotateSession(core, caller.session, core.clock.now());
  });
}

/** Where a password was reset from, for the audit log (only the command line so far). */
export type ResetVia = "cli";

export interface PasswordReset {
  sessionsSignedOut: number;
  /** Whether a lock or counted wrong passwords were cleared. */
  lockoutCleared: boolean;
}

/**
 * `cairn reset-password`: a new password set by whoever runs the server, for an owner who has
 * forgotten theirs, so there is no old password and no session to prove anything with. The
 * same strength rules as registration. Every session of the account ends (whoever still holds
 * one is not known to be the owner), the lockout is cleared for every address, and
 * user.password_reset is recorded by nobody (no account acted). API tokens stay: a forgotten
 * password is no sign that one leaked, and the owner can revoke them once signed in.
 */
export async function resetPassword(core: Core, user: UserRow, newPassword: string, via: ResetVia): Promise<PasswordReset> {
  await checkNewPassword(newPassword, "password");
  const hash = await hashPassword(newPassword);
  return core.tx(() => {
    updateAccount(core, user.id, { passwordHash: hash }, iso(core.clock.now()));
    const sessionsSignedOut = deleteUserSessions(core, user.id, null);
    const lockoutCleared = clearAllFailures(core, user.id);
    recordEvent(core, {
      type: "user.password_reset",
      targetType: "user",
      targetId: user.id,
      spaceId: null,
      actorId: null,
      ip: null,
      data: { via, sessionsSignedOut, lockoutCleared },
    });
    return { sessionsSignedOut, lockoutCleared };
  });
}
