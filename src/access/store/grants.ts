/**
 * The grants' store: the only module that writes `space_grants` and `invite_grants`. Spaces
 * (a new space's grants), invitations (an invite's grants, applied at sign-up), imports and the
 * permissions screens all call it.
 */
import { and, asc, count, eq, inArray, isNull } from "drizzle-orm";
import type { Core } from "../../core";
import type { Caller } from "../../identity/caller";
import { spaces } from "../../spaces/tables";
import { inviteGrants, OPERATION, spaceGrants, type GrantRow } from "../tables";
import { administeredSpaceFilter } from "./reads";

/** Inserts grants (one statement for the list). */
export function insertSpaceGrants(core: Core, rows: GrantRow[]): void {
  if (rows.length) core.db.insert(spaceGrants).values(rows).run();
}

export function grantsOfSpace(core: Core, spaceId: string): GrantRow[] {
  return core.db.select().from(spaceGrants).where(eq(spaceGrants.spaceId, spaceId)).all();
}

/** The principal's grant on the space, if any. */
export function grantOf(core: Core, spaceId: string, principalType: number, principalId: string): GrantRow | undefined {
  return core.db
    .select()
    .from(spaceGrants)
    .where(and(eq(spaceGrants.spaceId, spaceId), eq(spaceGrants.principalType, principalType), eq(spaceGrants.principalId, principalId)))
    .get();
}

/** A grant by id, only when it is the space's. */
export function grantOfSpaceById(core: Core, spaceId: string, id: string): GrantRow | undefined {
  return core.db
    .select()
    .from(spaceGrants)
    .where(and(eq(spaceGrants.id, id), eq(spaceGrants.spaceId, spaceId)))
    .get();
}

export function countAdminGrants(core: Core, spaceId: string): number {
  return core.db
    .select({ n: count() })
    .from(spaceGrants)
    .where(and(eq(spaceGrants.spaceId, spaceId), eq(spaceGrants.operation, OPERATION.Admin)))
    .get()!.n;
}

export function setGrantOperation(core: Core, id: string, operation: number): void {
  core.db.update(spaceGrants).set({ operation }).where(eq(spaceGrants.id, id)).run();
}

export function deleteGrant(core: Core, id: string): void {
  core.db.delete(spaceGrants).where(eq(spaceGrants.id, id)).run();
}

/** Deletes every grant of the space and answers them. */
export function deleteGrantsOfSpace(core: Core, spaceId: string): GrantRow[] {
  return core.db.delete(spaceGrants).where(eq(spaceGrants.spaceId, spaceId)).returning().all();
}

/** Every Admin grant's space and principal (the space administrators' list). */
export function adminGrants(core: Core) {
  return core.db
    .select({ spaceId: spaceGrants.spaceId, principalType: spaceGrants.principalType, principalId: spaceGrants.principalId })
    .from(spaceGrants)
    .where(eq(spaceGrants.operation, OPERATION.Admin))
    .all();
}

/** Stores an invite's grants (one statement for the list). */
export function insertInviteGrants(core: Core, inviteId: string, grants: Array<{ spaceId: string; operation: number }>): void {
  if (grants.length)
    core.db
      .insert(inviteGrants)
      .values(grants.map((g) => ({ inviteId, spaceId: g.spaceId, operation: g.operation })))
      .run();
}

/** The grants of these invites with their spaces' keys and names, by space name (spaces deleted since have dropped out). */
export function inviteGrantsWithSpaces(core: Core, inviteIds: string[]) {
  return core.db
    .select({
      inviteId: inviteGrants.inviteId,
      spaceId: inviteGrants.spaceId,
      operation: inviteGrants.operation,
      spaceKey: spaces.key,
      spaceName: spaces.name,
    })
    .from(inviteGrants)
    .innerJoin(spaces, eq(spaces.id, inviteGrants.spaceId))
    .where(inArray(inviteGrants.inviteId, inviteIds))
    .orderBy(asc(spaces.name))
    .all();
}

/** The spaces the caller administers, not archived, by name (what their invites may give). */
export function administeredLiveSpaces(core: Core, caller: Caller): Array<{ id: string; key: string; name: string }> {
  return core.db
    .select({ id: spaces.id, key: spaces.key, name: spaces.name })
    .from(spaces)
    .where(and(isNull(spaces.archivedAt), administeredSpaceFilter(caller, spaces.id)))
    .orderBy(asc(spaces.name), asc(spaces.key))
    .all();
}
