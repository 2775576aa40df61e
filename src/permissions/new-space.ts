/**
 * Creating a space: the one way a space row and its first grants are made, by POST /api/spaces
 * (commands/create-space.ts) and by every import (imports/write-space.ts). The creator is always
 * the space's administrator; whether the built-in Everyone group gets a grant is the caller's
 * choice (the web and the API: Edit, so a new space is open to the team; an import: none,
 * private until shared). Lives at the permissions layer because it writes through both the
 * spaces store and the permissions store.
 */
import type { Core } from "../core";
import { GROUP_ID } from "../identity/builtin-groups";
import { newId } from "../platform/crypto";
import { AppError } from "../platform/errors";
import { findSpaceByKey } from "../spaces/service";
import { insertSpace, type NewSpaceRow } from "../spaces/store";
import { insertSpaceGrants } from "../access/store/grants";
import { OPERATION, PRINCIPAL } from "../access/tables";

export type Operation = (typeof OPERATION)[keyof typeof OPERATION];

/** Who besides its creator (always Admin) may use a new space. */
export interface NewSpaceGrants {
  /** The built-in Everyone group's grant; null: none (only the creator sees the space). */
  everyone: Operation | null;
}

/** What POST /api/spaces gives: everyone signed in may view and edit (docs/permissions.md). */
export const OPEN_TO_EVERYONE: NewSpaceGrants = { everyone: OPERATION.Edit };
/** What an import gives: the importer alone, until they share it. */
export const CREATOR_ONLY: NewSpaceGrants = { everyone: null };

export const keyTaken = (key: string) =>
  new AppError("key_taken", { field: "key", detail: `The key ${key} is already used by another space.` });

/** The grant rows a new space starts with. */
function newSpaceGrantRows(spaceId: string, creatorId: string, grants: NewSpaceGrants, now: string) {
  const rows: {
    id: string;
    spaceId: string;
    principalType: number;
    principalId: string;
    operation: Operation;
    createdById: string;
    createdAt: string;
  }[] = [
    {
      id: newId(),
      spaceId,
      principalType: PRINCIPAL.User,
      principalId: creatorId,
      operation: OPERATION.Admin,
      createdById: creatorId,
      createdAt: now,
    },
  ];
  if (grants.everyone !== null)
    rows.push({
      id: newId(),
      spaceId,
      principalType: PRINCIPAL.Group,
      principalId: GROUP_ID.everyone,
      operation: grants.everyone,
      createdById: creatorId,
      createdAt: now,
    });
  return rows;
}

/**
 * Inside the caller's transaction: the key must be free (409 key_taken, checked again here:
 * another request or import may have taken it meanwhile), then the row (with `createdById` its
 * creator) and its grants. `grants` null: given later by grantNewSpace, when a staged space is
 * made visible (an import: the space lists of its importer find a space by its grants, so a
 * staged space has none). Events are the caller's (space.created, space.imported).
 */
export function createSpaceRow(
  core: Core,
  row: NewSpaceRow & { createdById: string; createdAt: string },
  grants: NewSpaceGrants | null,
): void {
  if (findSpaceByKey(core, row.key)) throw keyTaken(row.key);
  insertSpace(core, row);
  if (grants) grantNewSpace(core, row.id, row.createdById, grants, row.createdAt);
}

/** A new space's grants: its creator's Admin, and Everyone's as chosen (one statement). */
export function grantNewSpace(core: Core, spaceId: string, creatorId: string, grants: NewSpaceGrants, now: string): void {
  insertSpaceGrants(core, newSpaceGrantRows(spaceId, creatorId, grants, now));
}
