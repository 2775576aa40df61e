/**
 * The sign-in side of administering an account (right users.manage): suspending it (which ends
 * its sessions), ending its sessions, lifting its sign-in locks, switching off its two-factor. Each passes the same rules as the
 * rest of account administration (targetOf in src/users/admin-users.ts: never the owner, never
 * a higher tier) and is audited in its own transaction.
 */
import type { UserCaller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { AppError } from "../platform/errors";
import { accountOf, refuseLastAdministrator, targetOf, type AdminAccount } from "../users/admin-users";
import { updateAccount, USER_STATUS } from "../users/store/accounts";
import { clearAllFailures } from "./lockout";
import { deleteUserSessions } from "./sessions";
import { deleteSessionsOf } from "./store/sessions";

/** POST /api/admin/users/{id}/revoke-sessions: signs the account out everywhere. */
export function revokeAllSessions(core: Core, caller: UserCaller, userId: string): number {
  return core.tx(() => {
    targetOf(core, caller, userId);
    const count = deleteUserSessions(core, userId, null);
    recordEvent(core, {
      type: "user.sessions_revoked",
      targetType: "user",
      targetId: userId,
      spaceId: null,
      actorId: caller.user.id,
      ip: caller.ip,
      data: { count },
    });
    return count;
  });
}

/**
 * POST /api/admin/users/{id}/unlock: the lock for every address and each address's lock and
 * count go, as when the password is reset. The notice of wrong passwords stays, so the person
 * is still told at their next sign-in.
 */
export function unlockAccount(core: Core, caller: UserCaller, userId: string): void {
  core.tx(() => {
    targetOf(core, caller, userId);
    const cleared = clearAllFailures(core, userId);
    recordEvent(core, {
      type: "user.unlocked",
      targetType: "user",
      targetId: userId,
      spaceId: null,
      actorId: caller.user.id,
      ip: caller.ip,
      data: { cleared },
    });
  });
}

/**
 * POST /api/admin/users/{id}/disable-two-factor (re-authentication checked by the route), for
 * someone who lost their authenticator. Cairn has no two-factor sign-in yet, so no account has it
 * on, and the answer says so (409 two_factor_off).
 */
export function disableTwoFactor(core: Core, caller: UserCaller, userId: string): void {
  core.tx(() => {
    const target = targetOf(core, caller, userId);
    if (!target.user.totpEnabled)
      throw new AppError("two_factor_off", {
        detail: `${target.user.displayName} does not use two-factor sign-in: there is nothing to switch off.`,
      });
    updateAccount(core, userId, { totpEnabled: false }, iso(core.clock.now()));
    recordEvent(core, {
      type: "user.two_factor_disabled",
      targetType: "user",
      targetId: userId,
      spaceId: null,
      actorId: caller.user.id,
      ip: caller.ip,
      data: {},
    });
  });
}

/**
 * PUT /api/admin/users/{id}/status. Suspending ends every session of the account in the same
 * transaction; its API tokens stop because a token resolves only for an active account (and the
 * token look-up cache is dropped at any write), so both are refused from the very next request.
 */
export function setStatus(core: Core, caller: UserCaller, userId: string, status: number): AdminAccount {
  core.tx(() => {
    const target = targetOf(core, caller, userId);
    if (status === target.user.status) return;
    const now = iso(core.clock.now());
    if (status === USER_STATUS.Suspended) {
      if (userId === caller.user.id)
        throw new AppError("own_account", { detail: "You cannot suspend your own account; ask another administrator." });
      refuseLastAdministrator(core, target, "suspending them");
      updateAccount(core, userId, { status }, now);
      const ended = deleteSessionsOf(core, userId, null);
      recordEvent(core, {
        type: "user.suspended",
        targetType: "user",
        targetId: userId,
        spaceId: null,
        actorId: caller.user.id,
        ip: caller.ip,
        data: { sessionsEnded: ended },
      });
    } else {
      updateAccount(core, userId, { status }, now);
      recordEvent(core, {
        type: "user.reactivated",
        targetType: "user",
        targetId: userId,
        spaceId: null,
        actorId: caller.user.id,
        ip: caller.ip,
        data: {},
      });
    }
  });
  return accountOf(core, userId);
}
