/**
 * Who a caller is, as grants and restrictions name people: the account itself (principal type
 * 0) and every group it is in (type 1): the built-in groups of its role tier plus its custom
 * groups. Written as SQL so a whole list is filtered in one statement (never a query per row);
 * custom group membership is a sub-select SQLite evaluates once per statement.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Caller } from "../identity/caller";
import { builtInGroupIdsForTier } from "../identity/builtin-groups";
import { listOfJson, listParam } from "../platform/db/lists";

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

/**
 * "Row `alias` names the caller", for raw prepared statements binding $uid and $builtins.
 * `alias` is a table alias written by this module, never input.
 */
export function namesCallerRaw(alias: string): string {
  return `((${alias}.principal_type = 0 AND ${alias}.principal_id = $uid) OR (${alias}.principal_type = 1 AND (${alias}.principal_id IN (${listParam("$builtins")}) OR ${alias}.principal_id IN (SELECT group_id FROM group_members WHERE user_id = $uid))))`;
}

/** The same test as a drizzle fragment with the caller's values bound. */
export function namesCaller(alias: string, p: PrincipalParams): SQL {
  const a = sql.raw(alias);
  return sql`((${a}.principal_type = 0 AND ${a}.principal_id = ${p.uid}) OR (${a}.principal_type = 1 AND (${a}.principal_id IN (${listOfJson(p.builtins)}) OR ${a}.principal_id IN (SELECT group_id FROM group_members WHERE user_id = ${p.uid}))))`;
}
