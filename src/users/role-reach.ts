import type { RoleRow, UserCaller } from "../identity/caller";
import { BUILT_IN_ROLES, TIER } from "../identity/rights";

/** The rights every User holds by default: never "beyond" anyone. */
const BASELINE: ReadonlySet<string> = new Set(BUILT_IN_ROLES[0].permissions);

/**
 * The rights of `role` the caller lacks, those every User holds aside; none for the owner. A
 * role holding any is out of the caller's reach: they may neither act on its holders nor give it
 * (admin-users.ts rule 3, and invites).
 */
export function rightsBeyond(caller: UserCaller, role: RoleRow): string[] {
  if (caller.role.tier >= TIER.Owner) return [];
  return role.permissions.filter((r) => !BASELINE.has(r) && !caller.permissions.has(r)).sort();
}
