/**
 * Administering accounts (right users.manage): the list, role and ownership. The sign-in side
 * (suspension, unlock, sessions, reset links) is in src/auth/admin-sign-in.ts and
 * src/auth/recover.ts, and revoking every token of an account in src/tokens/admin-tokens.ts, a
 * layer up: each writes its own domain's tables.
 *
 * The rules every action on someone else's account passes (targetOf):
 * 1. nobody acts on the owner (403 owner_protected); the owner hands ownership on instead;
 * 2. nobody acts on an account of a higher tier than their own role's, nor gives a role of a
 *    higher tier (403 higher_tier): a Member-tier role holding users.manage manages members,
 *    not administrators, so it cannot reset an administrator's password or promote itself;
 * 3. below the owner, nobody acts on an account whose role holds a right theirs does not, nor
 *    gives such a role (403 higher_rights), the rights every User holds by default aside: so an
 *    Admin-tier holder of users.manage cannot reset the password of, or take over, an account
 *    whose custom role holds backups.restore when theirs does not;
 * 4. the last active administrator (Admin or Owner tier) is never suspended or demoted
 *    (409 last_administrator).
 * The routes check the right and, for role changes and the transfer, re-authentication.
 */
import type { RoleRow, UserCaller, UserRow } from "../identity/caller";
import { ROLE_ID, TIER } from "../identity/rights";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { AppError, invalid, notFound } from "../platform/errors";
import { avatarUrl } from "./avatars";
import { adminAccountRows, countOtherActiveAdministrators } from "./store/account-lists";
import { findUserWithRoleById, updateAccount, USER_STATUS } from "./store/accounts";
import { roleById } from "./store/roles";
import { rightsBeyond } from "./role-reach";

export interface Target {
  user: UserRow;
  role: RoleRow;
}

/** The account an administrator acts on, after rules 1 and 2. Unknown: 404. */
export function targetOf(core: Core, caller: UserCaller, userId: string): Target {
  const found = findUserWithRoleById(core, userId);
  if (!found) throw notFound("No such account");
  if (found.role.tier >= TIER.Owner) {
    throw new AppError("owner_protected", {
      detail:
        `${found.user.displayName} is the owner: nobody can change the owner's account from here. ` +
        `The owner can hand ownership to someone else (transfer-ownership).`,
    });
  }
  if (found.role.tier > caller.role.tier) {
    throw new AppError("higher_tier", {
      detail: `${found.user.displayName}'s role (${found.role.name}) is of a higher tier than yours (${caller.role.name}).`,
    });
  }
  refuseWiderRights(caller, found.role, `${found.user.displayName}'s role (${found.role.name})`);
  return found;
}

/** Rule 3: a role holding rights the caller lacks (beyond every User's) is out of their reach. */
function refuseWiderRights(caller: UserCaller, role: RoleRow, what: string): void {
  const beyond = rightsBeyond(caller, role);
  if (beyond.length)
    throw new AppError("higher_rights", {
      detail: `${what} holds rights yours does not: ${beyond.join(", ")}.`,
      extra: { rights: beyond },
    });
}

/** GET /api/admin/users: every account, owner first, then by name. */
export function listAccounts(core: Core) {
  const now = core.clock.now();
  return adminAccountRows(core).map((r) => {
    const accountLock = r.lockedUntil && Date.parse(r.lockedUntil) > now ? r.lockedUntil : null;
    const addressLock = r.addressLockedUntil && Date.parse(r.addressLockedUntil) > now ? r.addressLockedUntil : null;
    const seen = [r.sessionSeenAt, r.tokenUsedAt].filter((x): x is string => !!x).sort();
    return {
      id: r.id,
      email: r.email,
      displayName: r.displayName,
      avatarUrl: avatarUrl({ id: r.id, avatarSha256: r.avatarSha256 }),
      avatarVariant: r.avatarVariant,
      role: r.tier,
      roleId: r.roleId,
      roleName: r.roleName,
      status: r.status,
      isOwner: r.tier >= TIER.Owner,
      twoFactorEnabled: r.totpEnabled,
      // Cairn has no two-factor sign-in (nor its recovery codes) yet.
      recoveryCodesLeft: null,
      lastSeenAt: seen.at(-1) ?? null,
      failedSignIns: r.failedLogins,
      lockedUntil: accountLock ?? addressLock,
      lockScope: accountLock ? ("account" as const) : addressLock ? ("address" as const) : null,
      createdAt: r.createdAt,
    };
  });
}

export type AdminAccount = ReturnType<typeof listAccounts>[number];

export function accountOf(core: Core, userId: string): AdminAccount {
  const found = listAccounts(core).find((a) => a.id === userId);
  if (!found) throw notFound("No such account");
  return found;
}

export function refuseLastAdministrator(core: Core, target: Target, doing: string): void {
  if (
    target.user.status === USER_STATUS.Active &&
    target.role.tier >= TIER.Admin &&
    countOtherActiveAdministrators(core, target.user.id) === 0
  ) {
    throw new AppError("last_administrator", {
      detail: `${target.user.displayName} is the last active administrator: ${doing} would leave nobody to run the instance.`,
    });
  }
}

export interface RoleChangeInput {
  role?: number;
  roleId?: string;
}

/** The role a change names: a tier (built-in User or Administrator) or a role id. */
function roleNamed(core: Core, input: RoleChangeInput): RoleRow {
  if ((input.role === undefined) === (input.roleId === undefined))
    throw invalid("role", "send either role (a tier: 0 User, 1 Administrator) or roleId, not both and not neither");
  if (input.role !== undefined) {
    if (input.role >= TIER.Owner)
      throw invalid("role", "the Owner tier is given only by transferring ownership (POST /api/admin/users/{userId}/transfer-ownership)");
    const id = input.role === TIER.Admin ? ROLE_ID.admin : ROLE_ID.user;
    return roleById(core, id)!;
  }
  const found = roleById(core, input.roleId!);
  if (!found) throw invalid("roleId", "is not a role on this instance (GET /api/admin/roles lists them)");
  if (found.tier >= TIER.Owner)
    throw invalid("roleId", "the Owner role is given only by transferring ownership (POST /api/admin/users/{userId}/transfer-ownership)");
  return found;
}

/** PUT /api/admin/users/{id}/role. Takes effect on the account's next request. */
export function changeRole(core: Core, caller: UserCaller, userId: string, input: RoleChangeInput): AdminAccount {
  core.tx(() => {
    const target = targetOf(core, caller, userId);
    const next = roleNamed(core, input);
    if (next.tier > caller.role.tier)
      throw new AppError("higher_tier", { detail: `The role ${next.name} is of a higher tier than yours (${caller.role.name}).` });
    refuseWiderRights(caller, next, `The role ${next.name}`);
    if (next.id === target.role.id) return;
    if (next.tier < TIER.Admin) refuseLastAdministrator(core, target, "demoting them");
    updateAccount(core, userId, { roleId: next.id }, iso(core.clock.now()));
    recordEvent(core, {
      type: "user.role_changed",
      targetType: "user",
      targetId: userId,
      spaceId: null,
      actorId: caller.user.id,
      ip: caller.ip,
      data: {
        from: { roleId: target.role.id, roleName: target.role.name, tier: target.role.tier },
        to: { roleId: next.id, roleName: next.name, tier: next.tier },
      },
    });
  });
  return accountOf(core, userId);
}

export function requireOwner(caller: UserCaller): UserCaller {
  if (caller.role.tier < TIER.Owner) throw new AppError("owner_only", { detail: "Only the owner can hand ownership on." });
  return caller;
}

/**
 * POST /api/admin/users/{id}/transfer-ownership: the owner only. In one transaction the target
 * becomes Owner and the old owner Administrator, so there is exactly one owner before and after.
 */
export function transferOwnership(core: Core, caller: UserCaller, userId: string): AdminAccount {
  core.tx(() => {
    requireOwner(caller);
    if (userId === caller.user.id) throw new AppError("own_account", { detail: "You are already the owner; choose someone else." });
    const target = findUserWithRoleById(core, userId);
    if (!target) throw notFound("No such account");
    if (target.user.status !== USER_STATUS.Active)
      throw new AppError("account_suspended", {
        detail: `${target.user.displayName} is suspended: reactivate them before giving them ownership.`,
      });
    const now = iso(core.clock.now());
    updateAccount(core, caller.user.id, { roleId: ROLE_ID.admin }, now);
    updateAccount(core, userId, { roleId: ROLE_ID.owner }, now);
    recordEvent(core, {
      type: "user.ownership_transferred",
      targetType: "user",
      targetId: userId,
      spaceId: null,
      actorId: caller.user.id,
      ip: caller.ip,
      data: {
        from: caller.user.id,
        to: userId,
        previousRoleOfNewOwner: { roleId: target.role.id, roleName: target.role.name },
        formerOwnerNowRoleId: ROLE_ID.admin,
      },
    });
  });
  return accountOf(core, userId);
}
