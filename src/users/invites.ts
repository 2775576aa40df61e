import type { UserCaller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { newId, randomToken, sha256Hex } from "../platform/crypto";
import { invalid, notFound } from "../platform/errors";
import {
  checkInviteGrants,
  checkInviteRole,
  grantsOfInvites,
  storeInviteGrants,
  type InviteGrant,
  type InviteGrantInput,
} from "./invite-access";
import {
  deleteUnusedInvite,
  insertInvite,
  inviteByTokenHash,
  inviteRoleAndInviter,
  markInviteUsed,
  pendingInvitesWithRole,
  type InviteRow,
} from "./store/invites";

export { markInviteUsedBy } from "./store/invites";
import { INVITE_MESSAGE_MAX } from "../common/limits";

export const INVITE_DEFAULT_DAYS = 7;
export const INVITE_MAX_DAYS = 90;
/** The longest personal message an invite carries. */
export { INVITE_MESSAGE_MAX };

const DAY = 86_400_000;

export interface CreateInviteInput {
  email?: string | null;
  expiresInDays?: number;
  sendEmail?: boolean;
  message?: string;
  /** The role the new account gets; the built-in User when left out. */
  roleId?: string;
  /** Access to spaces the new account gets (user grants), applied when the invite is accepted. */
  spaces?: InviteGrantInput[];
}

function toInvite(row: InviteRow, roleName: string, grants: InviteGrant[]) {
  return {
    id: row.id,
    email: row.email,
    roleId: row.roleId,
    roleName,
    spaces: grants,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    createdById: row.createdById,
  };
}

export function createInvite(core: Core, caller: UserCaller, input: CreateInviteInput, normaliseEmail: (e: string) => string) {
  const days = input.expiresInDays ?? INVITE_DEFAULT_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > INVITE_MAX_DAYS)
    throw invalid("expiresInDays", `must be a whole number of days from 1 to ${INVITE_MAX_DAYS}`);
  const email = input.email ? normaliseEmail(input.email) : null;
  if (input.message && input.message.length > INVITE_MESSAGE_MAX)
    throw invalid("message", `must be at most ${INVITE_MESSAGE_MAX} characters`);
  const role = checkInviteRole(core, caller, input.roleId);
  const grants = checkInviteGrants(core, caller, input.spaces);
  const token = randomToken(32);
  const now = core.clock.now();
  const row = {
    id: newId(),
    tokenHash: sha256Hex(token),
    email,
    roleId: role.id,
    createdById: caller.user.id,
    expiresAt: iso(now + days * DAY),
    createdAt: iso(now),
  };
  core.tx(() => {
    insertInvite(core, row);
    storeInviteGrants(core, row.id, grants);
    const spaces = grants.map((g) => ({ spaceId: g.spaceId, key: g.spaceKey, operation: g.operation }));
    recordEvent(core, {
      type: "invite.created",
      targetType: "invite",
      targetId: row.id,
      spaceId: null,
      actorId: caller.user.id,
      ip: caller.ip,
      data: { email, roleId: row.roleId, roleName: role.name, spaces, expiresAt: row.expiresAt },
    });
  });
  return {
    ...toInvite({ ...row, usedAt: null, usedById: null }, role.name, grants),
    token,
    path: `/register?invite=${token}`,
    // Cairn does not send e-mail yet: the link is shared by hand.
    emailSent: false,
    emailStatus: input.sendEmail ? "E-mail is not set up on this instance yet: share the link yourself." : null,
  };
}

/** Pending invites: not used and not expired, each with its role and spaces. */
export function listInvites(core: Core) {
  const rows = pendingInvitesWithRole(core, iso(core.clock.now()));
  const grants = grantsOfInvites(
    core,
    rows.map((r) => r.invite.id),
  );
  return rows.map((r) => toInvite(r.invite, r.roleName, grants.get(r.invite.id) ?? []));
}

/** A pending invite by its token, or undefined (unknown, used and expired alike). */
function pendingInvite(core: Core, token: string): InviteRow | undefined {
  const row = inviteByTokenHash(core, sha256Hex(token));
  return row && !row.usedAt && row.expiresAt > iso(core.clock.now()) ? row : undefined;
}

/**
 * GET /api/auth/invite?token=…: what the register form shows a person holding a valid invite
 * link (the address it is for, the role, the spaces, who invited them). Only the token opens it;
 * unknown, used and expired tokens are one 404, so nothing is learnt without a valid link.
 */
export function describeInvite(core: Core, token: string) {
  const row = pendingInvite(core, token);
  if (!row) throw notFound("This invite link does not work: it may have expired or been used. Ask for a new one.");
  const { roleName, inviterName } = inviteRoleAndInviter(core, row);
  const grants = grantsOfInvites(core, [row.id]).get(row.id) ?? [];
  return {
    email: row.email,
    roleName: roleName ?? "User",
    invitedBy: inviterName ?? null,
    spaces: grants.map((g) => ({ name: g.spaceName, operation: g.operation })),
    expiresAt: row.expiresAt,
  };
}

export function deleteInvite(core: Core, caller: UserCaller, id: string): void {
  core.tx(() => {
    const gone = deleteUnusedInvite(core, id);
    if (!gone) throw notFound();
    recordEvent(core, {
      type: "invite.deleted",
      targetType: "invite",
      targetId: id,
      spaceId: null,
      actorId: caller.user.id,
      ip: caller.ip,
      data: { email: gone.email },
    });
  });
}

/**
 * Checks an invite inside the registration transaction and marks it used. Unknown, used and
 * expired invites all give the same 400. Answers the role it grants; the caller records who
 * used it (markInviteUsedBy) and applies its grants (applyInviteGrants) once the account row exists.
 */
export function consumeInvite(core: Core, token: string, email: string): { inviteId: string; roleId: string; createdById: string | null } {
  const row = pendingInvite(core, token);
  if (!row) throw invalid("inviteToken", "is not valid: it may have expired or been used; ask for a new invite");
  if (row.email && row.email !== email) throw invalid("email", "must be the address the invite was sent to");
  markInviteUsed(core, row.id, iso(core.clock.now()));
  return { inviteId: row.id, roleId: row.roleId, createdById: row.createdById };
}
