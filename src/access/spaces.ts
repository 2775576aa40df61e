/**
 * Who may do what with a space. The ONE place these rules live: services ask here and never
 * decide on their own, so the full rules (grants, groups, public spaces; a later issue) only
 * change this file.
 *
 * For now: a signed-in caller may read and edit every space; administering a space (settings,
 * archive, delete) needs to be its creator or hold `spaces.manage`; anonymous callers see
 * nothing. Archived spaces are read-only for everyone.
 */
import { hasRight } from "./rights";
import type { Caller } from "../auth/caller";
import type { Core } from "../core";
import { AppError, notFound } from "../platform/errors";
import type { SpaceRow } from "../spaces/tables";

export function canCreateSpace(caller: Caller): boolean {
  return hasRight(caller, "spaces.create");
}

export function canReadSpace(_core: Core, caller: Caller, _space: SpaceRow): boolean {
  return caller.kind === "user";
}

/** May change pages in the space (ignores archival; see requireWritableSpace). */
export function canEditSpace(core: Core, caller: Caller, space: SpaceRow): boolean {
  if (caller.kind !== "user" || caller.token?.readOnly) return false;
  return canReadSpace(core, caller, space);
}

export function canAdminSpace(core: Core, caller: Caller, space: SpaceRow): boolean {
  if (!canEditSpace(core, caller, space) || caller.kind !== "user") return false;
  return space.createdById === caller.user.id || hasRight(caller, "spaces.manage");
}

/** A space the caller may not see is exactly as missing as one that does not exist. */
export function requireReadableSpace(core: Core, caller: Caller, space: SpaceRow | undefined): SpaceRow {
  if (!space || !canReadSpace(core, caller, space)) throw notFound("Space not found");
  return space;
}

export function spaceArchived(): AppError {
  return new AppError("forbidden", { detail: "Unarchive the space to change it." }, "This space is archived");
}

/** Readable (404), not archived (403), editable by the caller (403). */
export function requireEditableSpace(core: Core, caller: Caller, space: SpaceRow | undefined): SpaceRow {
  const s = requireReadableSpace(core, caller, space);
  if (s.archivedAt) throw spaceArchived();
  if (!canEditSpace(core, caller, s)) throw new AppError("forbidden", {}, "You may not edit this space");
  return s;
}

/** Readable (404), administered by the caller (403). Archival is the caller's to check. */
export function requireAdminSpace(core: Core, caller: Caller, space: SpaceRow | undefined): SpaceRow {
  const s = requireReadableSpace(core, caller, space);
  if (!canAdminSpace(core, caller, s)) throw new AppError("forbidden", {}, "Only an administrator of this space may do this");
  return s;
}
