/** The people grants and restrictions name: checking they exist, and their names for lists. */
import { eq, inArray } from "drizzle-orm";
import { PRINCIPAL } from "./tables";
import type { Core } from "../core";
import { groups } from "../groups/tables";
import { invalid } from "../platform/errors";
import { users } from "../users/tables";

export interface PrincipalRef {
  principalType: number;
  principalId: string;
}

/** 400 on principalId unless it is an account (type 0) or a group (type 1) of this instance. */
export function requireExistingPrincipal(core: Core, ref: PrincipalRef): void {
  const found =
    ref.principalType === PRINCIPAL.User
      ? core.db.select({ id: users.id }).from(users).where(eq(users.id, ref.principalId)).get()
      : core.db.select({ id: groups.id }).from(groups).where(eq(groups.id, ref.principalId)).get();
  if (!found) throw invalid("principalId", ref.principalType === PRINCIPAL.User ? "is not an account on this instance" : "is not a group on this instance");
}

/**
 * Names for a list of rows, two queries whatever its length. A principal that no longer exists
 * (a restriction's last principal kept after a deletion) has the name null.
 */
export function withPrincipalNames<T extends PrincipalRef>(core: Core, rows: T[]): Array<T & { principalName: string | null }> {
  const ids = (type: number) => [...new Set(rows.filter((r) => r.principalType === type).map((r) => r.principalId))];
  const userIds = ids(PRINCIPAL.User);
  const groupIds = ids(PRINCIPAL.Group);
  const userNames = new Map(userIds.length ? core.db.select({ id: users.id, name: users.displayName }).from(users).where(inArray(users.id, userIds)).all().map((u) => [u.id, u.name]) : []);
  const groupNames = new Map(groupIds.length ? core.db.select({ id: groups.id, name: groups.name }).from(groups).where(inArray(groups.id, groupIds)).all().map((g) => [g.id, g.name]) : []);
  return rows.map((r) => ({ ...r, principalName: (r.principalType === PRINCIPAL.User ? userNames : groupNames).get(r.principalId) ?? null }));
}
