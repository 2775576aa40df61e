/** The people grants and restrictions name: checking they exist, and their names for lists. */
import { PRINCIPAL } from "../access/tables";
import type { Core } from "../core";
import { groupExists, groupNamesOf } from "../groups/store";
import { invalid } from "../platform/errors";
import { accountNamesOf } from "../users/store/account-lists";
import { accountColumns } from "../users/store/accounts";

export interface PrincipalRef {
  principalType: number;
  principalId: string;
}

/** 400 on principalId unless it is an account (type 0) or a group (type 1) of this instance. */
export function requireExistingPrincipal(core: Core, ref: PrincipalRef): void {
  const found =
    ref.principalType === PRINCIPAL.User ? accountColumns(core, ref.principalId, ["id"]) !== undefined : groupExists(core, ref.principalId);
  if (!found)
    throw invalid(
      "principalId",
      ref.principalType === PRINCIPAL.User ? "is not an account on this instance" : "is not a group on this instance",
    );
}

/**
 * Names for a list of rows, two queries whatever its length. A principal that no longer exists
 * (a restriction's last principal kept after a deletion) has the name null.
 */
export function withPrincipalNames<T extends PrincipalRef>(core: Core, rows: T[]): Array<T & { principalName: string | null }> {
  const ids = (type: number) => [...new Set(rows.filter((r) => r.principalType === type).map((r) => r.principalId))];
  const userIds = ids(PRINCIPAL.User);
  const groupIds = ids(PRINCIPAL.Group);
  const userNames = accountNamesOf(core, userIds);
  const groupNames = groupNamesOf(core, groupIds);
  return rows.map((r) => ({
    ...r,
    principalName: (r.principalType === PRINCIPAL.User ? userNames : groupNames).get(r.principalId) ?? null,
  }));
}
