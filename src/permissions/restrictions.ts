/**
 * Page restrictions. The rules they set are in access/pages.ts; this module lists and changes
 * them. Changing them needs Edit on the page, and a caller who is not a space admin may never
 * leave a restriction that does not name them (directly or through a group): nobody shuts
 * themselves out by accident, and a restriction only ever narrows who may do something (naming
 * someone never gives them more than their space grant).
 */
import { requireEditablePage, requireSignedInReader } from "../access/pages";
import { principalParams } from "../access/principals";
import { canAdminSpace } from "../access/spaces";
import {
  deleteRestriction,
  deleteRestrictionsOfPage,
  insertRestrictions,
  restrictionOf,
  restrictionOfPageById,
  restrictionsOfPage,
  restrictionsUpFrom,
  restrictionTally,
} from "../access/store/restrictions";
import type { RestrictionRow } from "../access/tables";
import { requireUser, type Caller, type UserCaller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { invalid, notFound } from "../platform/errors";
import { findPage } from "../pages/store";
import type { PageRow } from "../pages/tables";
import type { SpaceRow } from "../spaces/tables";
import { requireExistingPrincipal, withPrincipalNames, type PrincipalRef } from "./principals";

/**
 * A restriction as the API answers it (docs/api.md, "Response shapes"), plus where it is set:
 * on this page, or inherited from above.
 */
export interface Restriction {
  id: string;
  pageId: string;
  inherited: boolean;
  operation: number;
  principalType: number;
  principalId: string;
  principalName: string | null;
  createdAt: string;
}

export interface RestrictionInput extends PrincipalRef {
  operation: number;
}

function toRestrictions(core: Core, pageId: string, rows: RestrictionRow[]): Restriction[] {
  return withPrincipalNames(core, rows).map((r) => ({
    id: r.id,
    pageId: r.pageId,
    inherited: r.pageId !== pageId,
    operation: r.operation,
    principalType: r.principalType,
    principalId: r.principalId,
    principalName: r.principalName,
    createdAt: r.createdAt,
  }));
}

/**
 * GET /api/pages/{pageId}/restrictions: those on the page, then those inherited from its
 * ancestors (nearest first). Whoever may see the page may see who it is restricted to.
 */
export function listRestrictions(core: Core, caller: Caller, pageId: string): Restriction[] {
  const { page } = requireSignedInReader(core, caller, findPage(core, pageId));
  const rows = restrictionsUpFrom(core, page.id);
  return toRestrictions(core, page.id, rows);
}

/** Whether the rows of (page, operation) are none, or name the caller. */
function leavesCallerIn(core: Core, caller: UserCaller, pageId: string, operation: number): boolean {
  const row = restrictionTally(core, pageId, operation, principalParams(caller));
  return row.n === 0 || row.named === 1;
}

function restrictionEvent(
  core: Core,
  caller: UserCaller,
  type: "page.restriction_added" | "page.restriction_removed",
  page: PageRow,
  space: SpaceRow,
  data: Record<string, unknown>,
): void {
  recordEvent(core, {
    type,
    targetType: "page",
    targetId: page.id,
    spaceId: space.id,
    actorId: caller.user.id,
    ip: caller.ip,
    data: { title: page.title, ...data },
  });
}

/**
 * POST /api/pages/{pageId}/restrictions:
 * 1. the page must be editable by the caller (404/401/403/409);
 * 2. the principal must exist (400 on principalId);
 * 3. naming someone already named for that operation changes nothing (created=false);
 * 4. otherwise the row is added, and unless the caller administers the space the restriction
 *    must now name them (400 on principalId, nothing written): name yourself or your group first.
 */
export function addRestriction(
  core: Core,
  caller: Caller,
  pageId: string,
  input: RestrictionInput,
): { restriction: Restriction; created: boolean } {
  const user = requireUser(caller);
  return core.tx(() => {
    // 1.
    const { page, space } = requireEditablePage(core, user, findPage(core, pageId));
    // 2.
    requireExistingPrincipal(core, input);
    // 3.
    const existing = restrictionOf(core, page.id, input.operation, input.principalType, input.principalId);
    if (existing) return { restriction: toRestrictions(core, page.id, [existing])[0], created: false };
    // 4.
    const row: RestrictionRow = {
      id: newId(),
      pageId: page.id,
      operation: input.operation,
      principalType: input.principalType,
      principalId: input.principalId,
      createdById: user.user.id,
      createdAt: iso(core.clock.now()),
    };
    insertRestrictions(core, [row]);
    if (!canAdminSpace(core, user, space) && !leavesCallerIn(core, user, page.id, input.operation)) {
      throw invalid(
        "principalId",
        "must name you or a group you are in: a restriction that leaves you out would " +
          "shut you out of this page (name yourself first, then others)",
      );
    }
    const restriction = toRestrictions(core, page.id, [row])[0];
    restrictionEvent(core, user, "page.restriction_added", page, space, {
      restrictionId: row.id,
      operation: row.operation,
      principalType: row.principalType,
      principalId: row.principalId,
      principalName: restriction.principalName,
    });
    return { restriction, created: true };
  });
}

/**
 * DELETE /api/pages/{pageId}/restrictions/{id}: only a restriction set on this page (404
 * otherwise, inherited ones included: remove them on their own page). Unless the caller
 * administers the space, what remains must still name them or be nothing (400 on id).
 */
export function removeRestriction(core: Core, caller: Caller, pageId: string, id: string): void {
  const user = requireUser(caller);
  core.tx(() => {
    const { page, space } = requireEditablePage(core, user, findPage(core, pageId));
    const row = restrictionOfPageById(core, page.id, id);
    if (!row) throw notFound("Restriction not found");
    deleteRestriction(core, row.id);
    if (!canAdminSpace(core, user, space) && !leavesCallerIn(core, user, page.id, row.operation)) {
      throw invalid("id", "would leave a restriction that does not name you, shutting you out; remove the others first, or all of it");
    }
    const [named] = withPrincipalNames(core, [row]);
    restrictionEvent(core, user, "page.restriction_removed", page, space, {
      restrictionId: row.id,
      operation: row.operation,
      principalType: row.principalType,
      principalId: row.principalId,
      principalName: named.principalName,
    });
  });
}

/** DELETE /api/pages/{pageId}/restrictions: lifts every restriction set on the page (or those of one operation). */
export function clearRestrictions(core: Core, caller: Caller, pageId: string, operation: number | undefined): void {
  const user = requireUser(caller);
  core.tx(() => {
    const { page, space } = requireEditablePage(core, user, findPage(core, pageId));
    const removed = deleteRestrictionsOfPage(core, page.id, operation);
    for (const row of removed.sort((a, b) => a.operation - b.operation || a.createdAt.localeCompare(b.createdAt))) {
      restrictionEvent(core, user, "page.restriction_removed", page, space, {
        restrictionId: row.id,
        operation: row.operation,
        principalType: row.principalType,
        principalId: row.principalId,
      });
    }
  });
}

/** A copied page carries the restrictions set on its source (inside the copy's transaction; no events). */
export function copyRestrictions(core: Core, caller: UserCaller, fromPageId: string, toPageId: string): void {
  const rows = restrictionsOfPage(core, fromPageId);
  if (rows.length === 0) return;
  const now = iso(core.clock.now());
  insertRestrictions(
    core,
    rows.map((r) => ({
      id: newId(),
      pageId: toPageId,
      operation: r.operation,
      principalType: r.principalType,
      principalId: r.principalId,
      createdById: caller.user.id,
      createdAt: now,
    })),
  );
}
