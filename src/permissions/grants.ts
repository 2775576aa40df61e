/**
 * Space permissions (grants): who may View, Edit or administer a space. Only the space's
 * admins list and change them; an instance administrator who is not one gets in through
 * recover-access, which leaves an explicit grant and an audit entry behind.
 */
import { requireRight } from "../identity/rights";
import { requireAdminSpace } from "../access/spaces";
import {
  countAdminGrants,
  deleteGrant,
  deleteGrantsOfSpace,
  grantOf,
  grantOfSpaceById,
  grantsOfSpace,
  insertSpaceGrants,
  setGrantOperation,
} from "../access/store/grants";
import { OPERATION, PRINCIPAL, type GrantRow } from "../access/tables";
import { requireUser, type Caller, type UserCaller } from "../identity/caller";
import { requireReauth } from "../auth/service";
import type { Core } from "../core";
import { recordEvent, type EventType } from "../events/outbox";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { invalid, notFound } from "../platform/errors";
import { findSpaceByKey } from "../spaces/service";
import type { SpaceRow } from "../spaces/tables";
import { requireExistingPrincipal, withPrincipalNames, type PrincipalRef } from "./principals";

/** A grant as the API answers it (docs/api.md, "Response shapes"). */
export interface Grant {
  id: string;
  principalType: number;
  principalId: string;
  principalName: string | null;
  operation: number;
  createdAt: string;
}

export interface GrantInput extends PrincipalRef {
  operation: number;
}

function toGrants(core: Core, rows: GrantRow[]): Grant[] {
  return withPrincipalNames(core, rows)
    .map((r) => ({
      id: r.id,
      principalType: r.principalType,
      principalId: r.principalId,
      principalName: r.principalName,
      operation: r.operation,
      createdAt: r.createdAt,
    }))
    .sort((a, b) => b.operation - a.operation || (a.principalName ?? "").localeCompare(b.principalName ?? "") || a.id.localeCompare(b.id));
}

const oneGrant = (core: Core, row: GrantRow) => toGrants(core, [row])[0];

function adminGrantCount(core: Core, spaceId: string): number {
  return countAdminGrants(core, spaceId);
}

function findGrant(core: Core, spaceId: string, ref: PrincipalRef): GrantRow | undefined {
  return grantOf(core, spaceId, ref.principalType, ref.principalId);
}

function grantEvent(core: Core, caller: UserCaller, type: EventType, space: SpaceRow, data: Record<string, unknown>): void {
  recordEvent(core, {
    type,
    targetType: "space",
    targetId: space.id,
    spaceId: space.id,
    actorId: caller.user.id,
    ip: caller.ip,
    data: { key: space.key, ...data },
  });
}

/**
 * Gives `ref` exactly `operation` on the space, inserting or changing its one grant (inside the
 * caller's transaction). Answers the row and its operation before (null when new).
 */
function upsertGrant(
  core: Core,
  caller: UserCaller,
  space: SpaceRow,
  ref: PrincipalRef,
  operation: number,
): { row: GrantRow; before: number | null } {
  const existing = findGrant(core, space.id, ref);
  if (existing) {
    if (existing.operation !== operation) setGrantOperation(core, existing.id, operation);
    return { row: { ...existing, operation }, before: existing.operation };
  }
  const row: GrantRow = {
    id: newId(),
    spaceId: space.id,
    principalType: ref.principalType,
    principalId: ref.principalId,
    operation,
    createdById: caller.user.id,
    createdAt: iso(core.clock.now()),
  };
  insertSpaceGrants(core, [row]);
  return { row, before: null };
}

/** GET /api/spaces/{key}/permissions: the space's grants, Admin first, each naming its principal. */
export function listGrants(core: Core, caller: Caller, key: string): Grant[] {
  const space = requireAdminSpace(core, caller, findSpaceByKey(core, key));
  return toGrants(core, grantsOfSpace(core, space.id));
}

/**
 * POST /api/spaces/{key}/permissions: a principal has one grant per space, so naming one that
 * already has a grant changes its operation (answered with created=false). Taking Admin from the
 * last Admin grant is a 400: a space always keeps an administrator.
 */
export function putGrant(core: Core, caller: Caller, key: string, input: GrantInput): { grant: Grant; created: boolean } {
  const user = requireUser(caller);
  return core.tx(() => {
    const space = requireAdminSpace(core, user, findSpaceByKey(core, key));
    requireExistingPrincipal(core, input);
    const current = findGrant(core, space.id, input);
    if (current?.operation === input.operation) return { grant: oneGrant(core, current), created: false };
    if (current?.operation === OPERATION.Admin && adminGrantCount(core, space.id) === 1) {
      throw invalid("operation", "would take Admin from the space's last administrator; give Admin to someone else first");
    }
    const { row, before } = upsertGrant(core, user, space, input, input.operation);
    const grant = oneGrant(core, row);
    grantEvent(core, user, "space.permission_granted", space, {
      principalType: row.principalType,
      principalId: row.principalId,
      principalName: grant.principalName,
      operation: row.operation,
      from: before,
    });
    return { grant, created: before === null };
  });
}

/** DELETE /api/spaces/{key}/permissions/{id}: 404 unless the grant is this space's; never the last Admin (400). */
export function revokeGrant(core: Core, caller: Caller, key: string, id: string): void {
  const user = requireUser(caller);
  core.tx(() => {
    const space = requireAdminSpace(core, user, findSpaceByKey(core, key));
    const row = grantOfSpaceById(core, space.id, id);
    if (!row) throw notFound("Permission not found");
    if (row.operation === OPERATION.Admin && adminGrantCount(core, space.id) === 1) {
      throw invalid("id", "is the space's last Admin grant; give Admin to someone else first");
    }
    const [named] = withPrincipalNames(core, [row]);
    deleteGrant(core, row.id);
    grantEvent(core, user, "space.permission_revoked", space, {
      principalType: row.principalType,
      principalId: row.principalId,
      principalName: named.principalName,
      operation: row.operation,
    });
  });
}

/**
 * DELETE /api/spaces/{key}/permissions: every grant goes, and the caller keeps (or gets) an
 * explicit Admin grant of their own, so the space is left private to them.
 * 1. needs a recent re-authentication (tokens: 403 reauth_required);
 * 2. the caller must administer the space (404/403);
 * 3. in ONE transaction: delete the grants, insert the caller's Admin grant, record the event.
 */
export function resetGrants(core: Core, caller: Caller, key: string): void {
  // 1.
  const user = requireUser(caller);
  requireReauth(core, user);
  core.tx(() => {
    // 2.
    const space = requireAdminSpace(core, user, findSpaceByKey(core, key));
    // 3.
    const removed = deleteGrantsOfSpace(core, space.id);
    upsertGrant(core, user, space, { principalType: PRINCIPAL.User, principalId: user.user.id }, OPERATION.Admin);
    grantEvent(core, user, "space.permissions_reset", space, {
      removed: removed.map((r) => ({ principalType: r.principalType, principalId: r.principalId, operation: r.operation })),
    });
  });
}

/**
 * POST /api/admin/spaces/{key}/recover-access: an instance administrator (right spaces.manage)
 * gives themselves an explicit Admin grant on any space, even one nobody administers any more.
 * Recorded as space.access_recovered, so it shows in the audit log.
 */
export function recoverAccess(core: Core, caller: Caller, key: string): Grant {
  const user = requireUser(caller);
  requireRight(user, "spaces.manage");
  return core.tx(() => {
    const space = findSpaceByKey(core, key);
    // A space an import is still writing is not there yet, for administrators too.
    if (!space || space.stagedAt !== null) throw notFound("Space not found");
    const { row, before } = upsertGrant(core, user, space, { principalType: PRINCIPAL.User, principalId: user.user.id }, OPERATION.Admin);
    grantEvent(core, user, "space.access_recovered", space, { from: before });
    return oneGrant(core, row);
  });
}
