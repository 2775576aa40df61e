import { TIER } from "./rights";

/** Built-in groups: fixed ids, membership by role tier (docs/permissions.md, "Groups"). */
export const BUILT_IN_GROUPS = [
  { id: "00000000-0000-7000-8000-0000000000a1", name: "Owners", description: "Everyone with the Owner role", minTier: TIER.Owner },
  {
    id: "00000000-0000-7000-8000-0000000000a2",
    name: "Administrators",
    description: "Everyone with an administrator or owner role",
    minTier: TIER.Admin,
  },
  { id: "00000000-0000-7000-8000-0000000000a3", name: "Everyone", description: "Every active account", minTier: TIER.Member },
] as const;

export const GROUP_ID = {
  owners: BUILT_IN_GROUPS[0].id,
  administrators: BUILT_IN_GROUPS[1].id,
  everyone: BUILT_IN_GROUPS[2].id,
} as const;

export function builtInGroup(id: string) {
  return BUILT_IN_GROUPS.find((g) => g.id === id) ?? null;
}

/** The built-in groups an account of this tier belongs to. */
export function builtInGroupIdsForTier(tier: number): string[] {
  return BUILT_IN_GROUPS.filter((g) => tier >= g.minTier).map((g) => g.id);
}
