/**
 * The roles table's store: the only module that writes `roles` (declared with the accounts that
 * name them, in users/tables.ts). The roles domain's rules (src/roles/) and the start-up's
 * built-in roles call it.
 */
import { count, eq } from "drizzle-orm";
import type { Core } from "../../core";
import type { RoleRow } from "../../identity/caller";
import { roles, users } from "../tables";

export function allRoles(core: Core): RoleRow[] {
  return core.db.select().from(roles).all();
}

export function roleById(core: Core, id: string): RoleRow | undefined {
  return core.db.select().from(roles).where(eq(roles.id, id)).get();
}

export function countRoles(core: Core): number {
  return core.db.select({ n: count() }).from(roles).get()!.n;
}

/** How many accounts hold each role, by role id. */
export function accountsPerRole(core: Core): Map<string, number> {
  return new Map(
    core.db
      .select({ roleId: users.roleId, n: count() })
      .from(users)
      .groupBy(users.roleId)
      .all()
      .map((r) => [r.roleId, r.n]),
  );
}

export function accountsHoldingRole(core: Core, roleId: string): number {
  return core.db.select({ n: count() }).from(users).where(eq(users.roleId, roleId)).get()!.n;
}

/** Inserts roles; with `ifAbsent`, a role whose id exists is left as it is. */
export function insertRoles(core: Core, rows: RoleRow[], ifAbsent = false): void {
  for (const row of rows) {
    const insert = core.db.insert(roles).values(row);
    (ifAbsent ? insert.onConflictDoNothing() : insert).run();
  }
}

export function updateRole(
  core: Core,
  id: string,
  change: Partial<Pick<RoleRow, "name" | "description" | "permissions" | "offered">>,
): void {
  core.db.update(roles).set(change).where(eq(roles.id, id)).run();
}

export function deleteRole(core: Core, id: string): void {
  core.db.delete(roles).where(eq(roles.id, id)).run();
}
