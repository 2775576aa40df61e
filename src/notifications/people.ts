/**
 * The people a notification may go to, as the access module sees them. Access rules take a
 * Caller; a recipient is not calling, so each is looked at as a signed-in user with their own
 * role and no token (a read-only token limits what a request may change, not what its owner
 * may see or be told about).
 */
import { and, eq, sql } from "drizzle-orm";
import type { RoleRow, UserCaller, UserRow } from "../auth/caller";
import type { Core } from "../core";
import { perInstance } from "../platform/memo";
import { USER_STATUS } from "../users/service";
import { roles, users } from "../users/tables";

export function personOf(user: UserRow, role: RoleRow): UserCaller {
  return { kind: "user", ip: "", user, role, permissions: new Set(role.permissions), session: null, token: null };
}

const lookups = perInstance((core: Core) => {
  const base = () => core.db.select({ user: users, role: roles }).from(users).innerJoin(roles, eq(users.roleId, roles.id));
  return {
    // One statement for any number of ids: they travel as one JSON array.
    byIds: base()
      .where(and(sql`${users.id} IN (SELECT value FROM json_each(${sql.placeholder("ids")}))`, eq(users.status, USER_STATUS.Active)))
      .prepare(),
    everyone: base().where(eq(users.status, USER_STATUS.Active)).prepare(),
  };
});

/** The active accounts among these ids (suspended accounts are told nothing), by id. */
export function peopleByIds(core: Core, ids: string[]): Map<string, UserCaller> {
  if (ids.length === 0) return new Map();
  return new Map(lookups(core).byIds.all({ ids: JSON.stringify(ids) }).map((r) => [r.user.id, personOf(r.user, r.role)]));
}

/** Every active account (for rare fan-outs such as a webhook switched off). */
export function everyone(core: Core): UserCaller[] {
  return lookups(core).everyone.all().map((r) => personOf(r.user, r.role));
}
