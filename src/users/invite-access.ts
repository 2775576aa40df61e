/**
 * What an invite gives: a role and access to chosen spaces. An inviter gives only what they
 * could give anyway, so an invite is never a way round the rules:
 * - a role no higher in tier than their own and holding no right theirs lacks (the rules for
 *   changing someone's role, admin-users.ts), never the Owner role;
 * - grants only on spaces they administer (the rule for adding a grant to a space), not archived.
 * Every id is checked when the invite is made; an id out of reach and one that does not exist
 * get the same 400, so the answer tells nothing about spaces or roles the inviter cannot see.
 * The grants are applied when the invite is accepted, in the transaction that creates the account.
 */
import { administeredLiveSpaces, insertInviteGrants, insertSpaceGrants, inviteGrantsWithSpaces } from "../access/store/grants";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import type { RoleRow, UserCaller } from "../identity/caller";
import { ROLE_ID, TIER } from "../identity/rights";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { invalid } from "../platform/errors";
import { OPERATION, PRINCIPAL } from "../access/tables";
import { rightsBeyond } from "./role-reach";
import { allRoles } from "./store/roles";

/** The most spaces one invite names. */
export const INVITE_SPACES_MAX = 50;

export interface InviteGrantInput {
  spaceId: string;
  /** 0 View, 1 Edit, 2 Admin. */
  operation: number;
}

export interface InviteGrant extends InviteGrantInput {
  spaceKey: string;
  spaceName: string;
}

/** The roles the caller may give in an invite: User first, then by tier and name. */
export function rolesYouMayGive(core: Core, caller: UserCaller): RoleRow[] {
  return allRoles(core)
    .filter((r) => r.tier < TIER.Owner && r.tier <= caller.role.tier && rightsBeyond(caller, r).length === 0)
    .sort((a, b) => (a.id === ROLE_ID.user ? -1 : b.id === ROLE_ID.user ? 1 : a.tier - b.tier || a.name.localeCompare(b.name)));
}

/** The spaces the caller may give access to: those they administer, not archived, by name. */
export function spacesYouMayGive(core: Core, caller: UserCaller) {
  return administeredLiveSpaces(core, caller);
}

/** GET /api/admin/invites/options: what the caller's invites may give. */
export function inviteOptions(core: Core, caller: UserCaller) {
  return {
    roles: rolesYouMayGive(core, caller).map((r) => ({ id: r.id, name: r.name, description: r.description, tier: r.tier })),
    spaces: spacesYouMayGive(core, caller),
  };
}

/** The invite's role: the built-in User when none is named; otherwise one the caller may give (400 roleId). */
export function checkInviteRole(core: Core, caller: UserCaller, roleId: string | undefined): RoleRow {
  const wanted = roleId ?? ROLE_ID.user;
  const role = rolesYouMayGive(core, caller).find((r) => r.id === wanted);
  if (!role) throw invalid("roleId", "is not a role you may give in an invite (GET /api/admin/invites/options lists those you may)");
  return role;
}

/** The invite's grants, each on a space the caller administers (400 spaces naming the entry). */
export function checkInviteGrants(core: Core, caller: UserCaller, wanted: InviteGrantInput[] | undefined): InviteGrant[] {
  if (!wanted?.length) return [];
  if (wanted.length > INVITE_SPACES_MAX) throw invalid("spaces", `must name at most ${INVITE_SPACES_MAX} spaces`);
  const allowed = new Map(spacesYouMayGive(core, caller).map((s) => [s.id, s]));
  const seen = new Set<string>();
  return wanted.map((g, i) => {
    const space = allowed.get(g.spaceId);
    if (!space)
      throw invalid(
        `spaces.${i}.spaceId`,
        "is not a space you administer (GET /api/admin/invites/options lists those you may give access to)",
      );
    if (seen.has(g.spaceId)) throw invalid(`spaces.${i}.spaceId`, "names a space already named earlier in the list");
    if (![OPERATION.View, OPERATION.Edit, OPERATION.Admin].includes(g.operation as 0))
      throw invalid(`spaces.${i}.operation`, "must be 0 (View), 1 (Edit) or 2 (Admin)");
    seen.add(g.spaceId);
    return { spaceId: space.id, spaceKey: space.key, spaceName: space.name, operation: g.operation };
  });
}

/** Stores an invite's grants (inside the caller's transaction). */
export function storeInviteGrants(core: Core, inviteId: string, grants: InviteGrant[]): void {
  insertInviteGrants(core, inviteId, grants);
}

/** The grants of each invite, by invite id (spaces deleted since have dropped out). */
export function grantsOfInvites(core: Core, inviteIds: string[]): Map<string, InviteGrant[]> {
  const byInvite = new Map<string, InviteGrant[]>();
  if (!inviteIds.length) return byInvite;
  const rows = inviteGrantsWithSpaces(core, inviteIds);
  for (const { inviteId, ...grant } of rows) (byInvite.get(inviteId) ?? byInvite.set(inviteId, []).get(inviteId)!).push(grant);
  return byInvite;
}

/**
 * Accepting: the new account gets the invite's grants as its own user grants (inside the
 * registration's transaction), each recorded as the inviter's space.permission_granted. A space
 * archived since still gets its grant (archival is reversible; the inviter chose it).
 */
export function applyInviteGrants(
  core: Core,
  invite: { id: string; createdById: string | null },
  user: { id: string; displayName: string },
): void {
  const grants = grantsOfInvites(core, [invite.id]).get(invite.id) ?? [];
  const now = iso(core.clock.now());
  for (const g of grants) {
    insertSpaceGrants(core, [
      {
        id: newId(),
        spaceId: g.spaceId,
        principalType: PRINCIPAL.User,
        principalId: user.id,
        operation: g.operation,
        createdById: invite.createdById,
        createdAt: now,
      },
    ]);
    recordEvent(core, {
      type: "space.permission_granted",
      targetType: "space",
      targetId: g.spaceId,
      spaceId: g.spaceId,
      actorId: invite.createdById,
      ip: null,
      data: {
        key: g.spaceKey,
        principalType: PRINCIPAL.User,
        principalId: user.id,
        principalName: user.displayName,
        operation: g.operation,
        from: null,
        inviteId: invite.id,
      },
    });
  }
}
