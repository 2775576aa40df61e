import { eq } from "drizzle-orm";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { AppError, invalid } from "../platform/errors";
import { getSettings } from "../settings/service";
import { findUserWithRoleByEmail, USER_STATUS } from "../users/service";
import { users } from "../users/tables";
import type { SessionRow, UserCaller } from "./caller";
import { limiters } from "./limits";
import { clearFailures, isLocked, recordFailure } from "./lockout";
import { checkNewPassword, hashPassword, verifyAgainstNothing, verifyPassword } from "./password";
import { createSession, deleteUserSessions, hasRecentReauth, rotateSession, type NewSession } from "./sessions";

export interface LoginInput {
  email: string;
  password: string;
  ip: string;
  userAgent: string | null;
}

/**
 * Sign-in:
 * 1. count the attempt against the address (loginRateLimitPerMinute) → 429;
 * 2. unknown e-mail, locked account and wrong password all answer the same 401, after the
 *    same argon2 work;
 * 3. a wrong password counts towards the lockout; a right one clears it;
 * 4. a suspended account is refused only after the right password.
 */
export async function login(core: Core, input: LoginInput) {
  const limit = limiters(core).login.hit(`login:${input.ip}`, getSettings(core).loginRateLimitPerMinute);
  if (!limit.ok) throw new AppError("rate_limited", { headers: { "Retry-After": String(limit.retryAfterSeconds) }, extra: { retryAfter: limit.retryAfterSeconds } });

  const found = findUserWithRoleByEmail(core, input.email);
  if (!found) {
    await verifyAgainstNothing(input.password);
    throw new AppError("invalid_credentials");
  }
  const ok = await verifyPassword(input.password, found.user.passwordHash);
  if (isLocked(core, found.user)) throw new AppError("invalid_credentials");
  if (!ok) {
    recordFailure(core, found.user, input.ip);
    throw new AppError("invalid_credentials");
  }
  if (found.user.status !== USER_STATUS.Active) throw new AppError("forbidden", { detail: "This account is suspended. Ask an administrator to reactivate it." });
  return core.tx(() => {
    clearFailures(core, found.user);
    const session = createSession(core, found.user.id, { ip: input.ip, userAgent: input.userAgent, reauthAt: core.clock.now() });
    recordEvent(core, { type: "user.login", targetType: "user", targetId: found.user.id, spaceId: null, actorId: found.user.id, ip: input.ip, data: { sessionId: session.row.handle } });
    return { ...found, session };
  });
}

/** DESIGN.md §5: destructive actions need a password or code proved in the last 5 minutes. */
export function requireReauth(core: Core, caller: UserCaller): void {
  if (!caller.session || !hasRecentReauth(core, caller.session)) {
    throw new AppError("reauth_required", { detail: caller.session ? "Confirm your password (POST /api/auth/reauth), then try again." : "API tokens cannot confirm a password; do this from a browser session." });
  }
}

/** POST /api/auth/reauth: proves the password and starts a fresh session id with a new window. */
export async function reauthenticate(core: Core, caller: UserCaller & { session: SessionRow }, password: string): Promise<NewSession> {
  if (!(await verifyPassword(password, caller.user.passwordHash))) throw invalid("password", "is not correct");
  return rotateSession(core, caller.session, core.clock.now());
}

/**
 * PUT /api/auth/me/password: checks the current password, stores the new one, signs out every
 * other session and gives this one a fresh id.
 */
export async function changePassword(core: Core, caller: UserCaller & { session: SessionRow }, currentPassword: string, newPassword: string): Promise<NewSession> {
  if (!(await verifyPassword(currentPassword, caller.user.passwordHash))) throw invalid("currentPassword", "is not correct");
  await checkNewPassword(newPassword, "newPassword");
  if (newPassword === currentPassword) throw invalid("newPassword", "must differ from the current password");
  const hash = await hashPassword(newPassword);
  return core.tx(() => {
    core.db.update(users).set({ passwordHash: hash, updatedAt: iso(core.clock.now()) }).where(eq(users.id, caller.user.id)).run();
    const signedOut = deleteUserSessions(core, caller.user.id, caller.session.id);
    recordEvent(core, { type: "user.password_changed", targetType: "user", targetId: caller.user.id, spaceId: null, actorId: caller.user.id, ip: caller.ip, data: { otherSessionsSignedOut: signedOut } });
    return rotateSession(core, caller.session, core.clock.now());
  });
}
