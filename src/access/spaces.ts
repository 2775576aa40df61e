/**
 * Who may do what with a space. The ONE place these rules live (with access/pages.ts):
 * services ask here and never decide on their own. docs/permissions.md states them per endpoint.
 *
 * A caller's operation on a space is the highest of the grants naming them, directly or through
 * a group (0 View, 1 Edit, 2 Admin; a higher one implies the lower). A public space adds View for
 * everyone, signed in or not, while the instance setting allowPublicSpaces is on and the space is
 * not archived. Instance administrators and owners are NOT space administrators by their role:
 * they see every space's metadata (GET /api/admin/spaces) and may give themselves an explicit,
 * audited Admin grant (recover-access), never the content silently.
 *
 * Archived spaces are read-only for everyone (requireEditableSpace); a read-only token never
 * edits (canEditSpace), though it reads whatever its owner may read, admin lists included.
 */
import type { Caller } from "../identity/caller";
import type { Core } from "../core";
import { getTableName } from "drizzle-orm";
import { keptUntilWrite } from "../platform/db/kept-answers";
import { AppError, notFound } from "../platform/errors";
import { getSettings } from "../settings/service";
import type { SpaceRow } from "../spaces/tables";
import { principalParams } from "./principals";
import { highestGrant } from "./store/reads";
import { hasRight } from "../identity/rights";
import { OPERATION, spaceGrants } from "./tables";
import { groupMembers } from "../groups/tables";

/** No access at all: below View. */
export const NO_ACCESS = -1;

export function canCreateSpace(caller: Caller): boolean {
  return hasRight(caller, "spaces.create");
}

// Kept between requests: (account, built-in groups, space) → operation from grants, until the
// two tables highestGrant reads change (keptUntilWrite's tables), so a request that changes grants
// or groups and then asks again gets the new answer, a rolled-back change leaves no answer
// behind, and page writes leave them kept.
const keptOperations = keptUntilWrite<number>("space-access", 10_000, undefined, {
  tables: [{ table: getTableName(spaceGrants) }, { table: getTableName(groupMembers) }],
});

function grantedOperation(core: Core, caller: Caller, spaceId: string): number {
  if (caller.kind !== "user") return NO_ACCESS;
  const params = principalParams(caller);
  return keptOperations(core.stamp, `${params.uid}|${params.builtins}|${spaceId}`, () => highestGrant(core, spaceId, params) ?? NO_ACCESS);
}

/** Public reading is on for this space right now. */
export function isPubliclyReadable(core: Core, space: SpaceRow): boolean {
  return space.isPublic && !space.archivedAt && getSettings(core).allowPublicSpaces;
}

/** The caller's operation on the space: NO_ACCESS, or 0 View, 1 Edit, 2 Admin. */
export function spaceOperation(core: Core, caller: Caller, space: SpaceRow): number {
  // A space an import is still writing is no one's, its importer's included, until it is whole.
  if (space.stagedAt !== null) return NO_ACCESS;
  const granted = grantedOperation(core, caller, space.id);
  return granted < OPERATION.View && isPubliclyReadable(core, space) ? OPERATION.View : granted;
}

const writes = (caller: Caller) => caller.kind === "user" && !caller.token?.readOnly;

export function canReadSpace(core: Core, caller: Caller, space: SpaceRow): boolean {
  return spaceOperation(core, caller, space) >= OPERATION.View;
}

/** May change pages in the space (ignores archival; see requireEditableSpace). */
export function canEditSpace(core: Core, caller: Caller, space: SpaceRow): boolean {
  return writes(caller) && spaceOperation(core, caller, space) >= OPERATION.Edit;
}

/** Holds Admin on the space (directly or through a group). Never given by an instance role. */
export function canAdminSpace(core: Core, caller: Caller, space: SpaceRow): boolean {
  return caller.kind === "user" && spaceOperation(core, caller, space) >= OPERATION.Admin;
}

/** What the caller may do in the space, as the API tells the UI: edit pages now (not while archived), administer it. */
export function spaceCapabilities(core: Core, caller: Caller, space: SpaceRow): { canEdit: boolean; canAdmin: boolean } {
  return { canEdit: canEditSpace(core, caller, space) && !space.archivedAt, canAdmin: canAdminSpace(core, caller, space) };
}

/** A space the caller may not see is exactly as missing as one that does not exist. */
export function requireReadableSpace(core: Core, caller: Caller, space: SpaceRow | undefined): SpaceRow {
  if (!space || !canReadSpace(core, caller, space)) throw notFound("Space not found");
  return space;
}

export function spaceArchived(): AppError {
  return new AppError("forbidden", { detail: "Unarchive the space to change it." }, "This space is archived");
}

/** Readable (404), signed in (401), not archived (403), editable by the caller (403). */
export function requireEditableSpace(core: Core, caller: Caller, space: SpaceRow | undefined): SpaceRow {
  const s = requireReadableSpace(core, caller, space);
  if (caller.kind !== "user") throw new AppError("unauthenticated");
  if (s.archivedAt) throw spaceArchived();
  if (!canEditSpace(core, caller, s)) throw new AppError("forbidden", {}, "You may not edit this space");
  return s;
}

/** Readable (404), signed in (401), administered by the caller (403). Archival is the caller's to check. */
export function requireAdminSpace(core: Core, caller: Caller, space: SpaceRow | undefined): SpaceRow {
  const s = requireReadableSpace(core, caller, space);
  if (caller.kind !== "user") throw new AppError("unauthenticated");
  if (!canAdminSpace(core, caller, s)) throw new AppError("forbidden", {}, "Only an administrator of this space may do this");
  return s;
}

/** SQL condition for lists: `column` (a space id) is readable by the caller (queries.ts). */
export { administeredSpaceFilter, readableSpaceFilter } from "./store/reads";
