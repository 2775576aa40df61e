/**
 * Who a caller is, as grants and restrictions name people: the account itself (principal type
 * 0) and every group it is in (type 1): the built-in groups of its role tier plus its custom
 * groups. The SQL that tests it, for whole lists in one statement, is namesCaller (queries.ts).
 */
import type { Caller } from "../identity/caller";
import { builtInGroupIdsForTier } from "../identity/builtin-groups";

/** The parameters every principal test binds. An anonymous caller matches nobody. */
export interface PrincipalParams {
  /** The account id, or "" (no account has it). */
  uid: string;
  /** JSON array of the built-in group ids of the account's tier. */
  builtins: string;
}

const NOBODY: PrincipalParams = { uid: "", builtins: "[]" };
const builtinsByTier = new Map<number, string>();

export function principalParams(caller: Caller): PrincipalParams {
  if (caller.kind !== "user") return NOBODY;
  let builtins = builtinsByTier.get(caller.role.tier);
  if (builtins === undefined) builtinsByTier.set(caller.role.tier, (builtins = JSON.stringify(builtInGroupIdsForTier(caller.role.tier))));
  return { uid: caller.user.id, builtins };
}
