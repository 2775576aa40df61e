import { permissionRequired } from "../platform/errors";
import { ALL_RIGHTS, type Right } from "../common/rights";
import type { Caller } from "./caller";

// The catalogue of rights is shared with the web UI (src/common/rights.ts); the decisions stay here.
export { ALL_RIGHTS, isRight, RIGHT_AREAS, RIGHT_CATALOGUE, RIGHTS, type Right, type RightArea } from "../common/rights";

/**
 * The Owner role's rights that can never be removed: whoever owns the instance can always
 * fix roles, people, blocks, read what happened and restore a backup, whatever else was done
 * to the Owner role.
 */
export const OWNER_RESERVED_RIGHTS: readonly Right[] = ["roles.manage", "users.manage", "security.manage", "audit.view", "backups.restore"];

export const TIER = { Member: 0, Admin: 1, Owner: 2 } as const;

/** Built-in roles have fixed ids so invites, tests and migrations can name them. */
export const BUILT_IN_ROLES = [
  {
    id: "00000000-0000-7000-8000-000000000001",
    name: "User",
    tier: TIER.Member,
    description: "Reads and writes in the spaces they are given",
    permissions: ["tokens.use", "spaces.create"] as Right[],
  },
  {
    id: "00000000-0000-7000-8000-000000000002",
    name: "Administrator",
    tier: TIER.Admin,
    description: "Runs the instance day to day",
    permissions: ALL_RIGHTS.filter((r) => r !== "backups.restore"),
  },
  {
    id: "00000000-0000-7000-8000-000000000003",
    name: "Owner",
    tier: TIER.Owner,
    description: "Holds every right, including restores",
    permissions: ALL_RIGHTS,
  },
] as const;

export const ROLE_ID = {
  user: BUILT_IN_ROLES[0].id,
  admin: BUILT_IN_ROLES[1].id,
  owner: BUILT_IN_ROLES[2].id,
} as const;

/** The one function that decides whether a caller holds an instance right. */
export function hasRight(caller: Caller, right: Right): boolean {
  return caller.kind === "user" && caller.permissions.has(right);
}

export function requireRight(caller: Caller, right: Right): void {
  if (!hasRight(caller, right)) throw permissionRequired(right);
}
