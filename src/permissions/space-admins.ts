/**
 * The administration side of spaces: every space's metadata for instance administrators
 * (never its content: they read pages only through a grant, see recover-access), and making a
 * space public or private.
 */
import { requireRight } from "../identity/rights";
import { adminGrants } from "../access/store/grants";
import { requireUser, type Caller } from "../identity/caller";
import { requireReauth } from "../auth/service";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { invalid, notFound } from "../platform/errors";
import { pageCountPerSpace } from "../pages/store/reads";
import { withPrincipalNames } from "./principals";
import { findSpaceById, findSpaceByKey, spaceFor, toSpace, type Space, type SpaceMetadata } from "../spaces/service";
import { unstagedSpacesByName, updateSpaceRow } from "../spaces/store";

export interface SpaceAdministrator {
  principalType: number;
  principalId: string;
  principalName: string | null;
}

export type AdminSpace = SpaceMetadata & { pageCount: number; administrators: SpaceAdministrator[] };

/** GET /api/admin/spaces: every space, archived included, by name (right spaces.manage). Four queries. */
export function listAllSpaces(core: Core, caller: Caller): AdminSpace[] {
  requireRight(requireUser(caller), "spaces.manage");
  // Not the spaces an import is still writing (they have no content anyone may see yet).
  const rows = unstagedSpacesByName(core);
  const counts = pageCountPerSpace(core);
  const admins = withPrincipalNames(core, adminGrants(core));
  return rows.map((row) => ({
    ...toSpace(row),
    pageCount: counts.get(row.id) ?? 0,
    administrators: admins
      .filter((a) => a.spaceId === row.id)
      .map(({ principalType, principalId, principalName }) => ({ principalType, principalId, principalName })),
  }));
}

export interface PublicInput {
  isPublic?: boolean;
  publicComments?: boolean;
}

/**
 * PUT /api/admin/spaces/{key}/public (right spaces.publish):
 * 1. needs a recent re-authentication (tokens: 403 reauth_required);
 * 2. in ONE transaction: change the flags sent, record space.visibility_changed (audit log).
 * A space may be made public while allowPublicSpaces is off: nobody reads it anonymously until
 * the setting is turned on. Asking for the current state changes and records nothing.
 */
export function setPublic(core: Core, caller: Caller, key: string, input: PublicInput): Space {
  const user = requireUser(caller);
  requireRight(user, "spaces.publish");
  if (input.isPublic === undefined && input.publicComments === undefined)
    throw invalid("isPublic", "send isPublic, publicComments or both");
  // 1.
  requireReauth(core, user);
  // 2.
  return core.tx(() => {
    const space = findSpaceByKey(core, key);
    // A space an import is still writing is not there yet, for administrators too.
    if (!space || space.stagedAt !== null) throw notFound("Space not found");
    const isPublic = input.isPublic ?? space.isPublic;
    const publicComments = input.publicComments ?? space.publicComments;
    if (isPublic === space.isPublic && publicComments === space.publicComments) return spaceFor(core, user, space);
    updateSpaceRow(core, space.id, { isPublic, publicComments, updatedAt: iso(core.clock.now()) });
    recordEvent(core, {
      type: "space.visibility_changed",
      targetType: "space",
      targetId: space.id,
      spaceId: space.id,
      actorId: user.user.id,
      ip: user.ip,
      data: {
        key: space.key,
        isPublic: { from: space.isPublic, to: isPublic },
        publicComments: { from: space.publicComments, to: publicComments },
      },
    });
    return spaceFor(core, user, findSpaceById(core, space.id)!);
  });
}
