import { BUILT_IN_ROLES, ROLE_ID } from "../identity/rights";
import type { RoleRow, UserCaller, UserRow } from "../identity/caller";
import { checkNewPassword, hashPassword } from "../identity/password";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { AppError, invalid } from "../platform/errors";
import { singleLine } from "../platform/text";
import { getSetting } from "../settings/service";
import { avatarUrl, withAvatarUrl } from "./avatars";
import { consumeInvite, markInviteUsedBy } from "./invites";
import { applyInviteGrants } from "./invite-access";
import { forgetSetupCode, requireSetupCode } from "./setup-code";
import {
  accountIdByEmail,
  activeDirectory,
  anyAccount,
  countAccounts,
  findUserWithRoleById,
  insertAccount,
  updateAccount,
  accountColumns,
} from "./store/accounts";
import { insertRoles } from "./store/roles";
import { DISPLAY_NAME_MAX } from "../common/limits";

export { findUserWithRoleByEmail, findUserWithRoleById, USER_STATUS } from "./store/accounts";

/** Creates the built-in roles on first start; later starts leave their (editable) rights alone. */
export function ensureBuiltInRoles(core: Core): void {
  core.tx(() => {
    const now = iso(core.clock.now());
    const rows = BUILT_IN_ROLES.map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      tier: r.tier,
      builtIn: true,
      permissions: [...r.permissions],
      offered: [...r.permissions],
      createdAt: now,
    }));
    insertRoles(core, rows, true);
  });
}

export function normaliseEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (e.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e)) throw invalid("email", "must be an e-mail address such as ada@example.com");
  return e;
}

/**
 * Registration, invite acceptance (registration with an invite) and profile changes all pass
 * here: one line without control characters as sent (platform/text.ts), then spaces collapse.
 */
/** The longest display name, after spaces collapse (the route schema advertises it too). */
export { DISPLAY_NAME_MAX };

export function normaliseDisplayName(name: string): string {
  const n = singleLine("displayName", name).trim().replace(/\s+/g, " ");
  if (!n) throw invalid("displayName", "must not be blank");
  if (n.length > DISPLAY_NAME_MAX) throw invalid("displayName", `must be at most ${DISPLAY_NAME_MAX} characters`);
  return n;
}

/** The account as GET /api/auth/me shows it (docs/api.md, "Response shapes"). */
export function toAccount(user: UserRow, role: RoleRow) {
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    role: role.tier,
    roleName: role.name,
    permissions: [...role.permissions].sort(),
    status: user.status,
    totpEnabled: user.totpEnabled,
    avatarUrl: avatarUrl(user),
    avatarVariant: user.avatarVariant,
    createdAt: user.createdAt,
  };
}

export type Account = ReturnType<typeof toAccount>;

/**
 * GET /api/auth/me's JSON, kept per account row as read: the token and session look-ups keep
 * their rows until the accounts or roles table changes (then they read new rows, which are new
 * objects here), so the account is sorted and serialised once, not on every page load.
 */
const accountJsons = new WeakMap<UserRow, { role: RoleRow; json: string }>();

export function accountJson(user: UserRow, role: RoleRow): string {
  const kept = accountJsons.get(user);
  if (kept?.role === role) return kept.json;
  const json = JSON.stringify(toAccount(user, role));
  accountJsons.set(user, { role, json });
  return json;
}

export interface RegisterInput {
  email: string;
  displayName: string;
  password: string;
  inviteToken?: string;
  /** The first account, on a server reachable from other machines: the code from its log (setup-code.ts). */
  setupCode?: string;
  /** The caller's address, for the audit log. */
  ip?: string;
}

/**
 * Registration (docs/decisions.md, "Registration"):
 * 1. the first account on an empty instance becomes the Owner, no invite needed (but the setup
 *    code when the server listens beyond loopback: setup-code.ts);
 * 2. later ones need a valid invite unless allowPublicRegistration is on;
 * 3. the invite is used up, and the role and space grants it gives applied, in the same
 *    transaction that creates the account.
 */
export async function register(core: Core, input: RegisterInput): Promise<{ user: UserRow; role: RoleRow }> {
  const email = normaliseEmail(input.email);
  const displayName = normaliseDisplayName(input.displayName);
  await checkNewPassword(input.password);
  const passwordHash = await hashPassword(input.password);

  const created = core.tx(() => {
    const now = iso(core.clock.now());
    const userCount = countAccounts(core);
    const id = newId();
    let roleId: string = ROLE_ID.user;
    let invite: ReturnType<typeof consumeInvite> | null = null;
    if (userCount === 0) {
      requireSetupCode(core, input.setupCode);
      roleId = ROLE_ID.owner;
    } else if (input.inviteToken) {
      invite = consumeInvite(core, input.inviteToken, email);
      roleId = invite.roleId;
    } else if (!getSetting(core, "allowPublicRegistration")) {
      throw invalid("inviteToken", "is required: ask an administrator for an invite link");
    }
    if (accountIdByEmail(core, email)) {
      throw new AppError("email_taken", { field: "email" });
    }
    insertAccount(core, { id, email, displayName, passwordHash, roleId, createdAt: now, updatedAt: now });
    const created = findUserWithRoleById(core, id)!;
    recordEvent(core, {
      type: "user.registered",
      targetType: "user",
      targetId: id,
      spaceId: null,
      actorId: id,
      ip: input.ip ?? null,
      data: { email, displayName, roleId, roleName: created.role.name, inviteId: invite?.inviteId ?? null },
    });
    if (invite) {
      markInviteUsedBy(core, invite.inviteId, id);
      // The spaces the invite gives, in this same transaction: the account never exists without them.
      applyInviteGrants(core, { id: invite.inviteId, createdById: invite.createdById }, { id, displayName });
    }
    return created;
  });
  // The owner exists: the code has done its work (after the commit, so a failed one keeps it).
  if (created.role.id === ROLE_ID.owner) forgetSetupCode(core.data.root);
  return created;
}

export function updateDisplayName(core: Core, caller: UserCaller, displayName: string): void {
  const name = normaliseDisplayName(displayName);
  core.tx(() => {
    const before = accountColumns(core, caller.user.id, ["displayName"]);
    updateAccount(core, caller.user.id, { displayName: name }, iso(core.clock.now()));
    recordEvent(core, {
      type: "user.updated",
      targetType: "user",
      targetId: caller.user.id,
      spaceId: null,
      actorId: caller.user.id,
      ip: caller.ip,
      data: { displayName: { from: before?.displayName ?? null, to: name } },
    });
  });
}

export function needsOwner(core: Core): boolean {
  return !anyAccount(core);
}

/** GET /api/users: the directory of active accounts. */
export function listDirectory(core: Core) {
  return activeDirectory(core).map(withAvatarUrl);
}
