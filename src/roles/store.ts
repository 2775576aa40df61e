/**
 * The roles domain's store: the only module that writes `role_reviews`, and the roles domain's
 * reads. The roles themselves are declared with the accounts (users/tables.ts) and written
 * through users/store/roles.ts.
 */
import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { Core } from "../core";
import { roles, users } from "../users/tables";
import { roleReviews } from "./tables";

/** Whether another role already has this name, whatever the case (SQLite's lower() folds ASCII). */
export function roleNameTaken(core: Core, name: string, exceptId: string | null): boolean {
  return (
    core.db
      .select({ id: roles.id })
      .from(roles)
      .where(and(sql`lower(${roles.name}) = lower(${name})`, exceptId ? ne(roles.id, exceptId) : undefined))
      .get() !== undefined
  );
}

export function insertRoleReview(core: Core, row: typeof roleReviews.$inferInsert): void {
  core.db.insert(roleReviews).values(row).run();
}

/** The latest review of the rights matrix, with who made it (their id is null once the account is gone). */
export function latestRoleReview(core: Core) {
  return core.db
    .select({ reviewedAt: roleReviews.reviewedAt, id: users.id, displayName: users.displayName })
    .from(roleReviews)
    .leftJoin(users, eq(roleReviews.reviewedById, users.id))
    .orderBy(desc(roleReviews.reviewedAt))
    .limit(1)
    .get();
}
