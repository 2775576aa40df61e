/** The invites table's store: the only module that writes `invites`. */
import { and, count, desc, eq, gt, isNull } from "drizzle-orm";
import type { Core } from "../../core";
import { invites, roles, users } from "../tables";

export type InviteRow = typeof invites.$inferSelect;

export function insertInvite(core: Core, row: typeof invites.$inferInsert): void {
  core.db.insert(invites).values(row).run();
}

/** Pending invites (not used, not expired at `now`), newest first, with their role's name. */
export function pendingInvitesWithRole(core: Core, now: string) {
  return core.db
    .select({ invite: invites, roleName: roles.name })
    .from(invites)
    .innerJoin(roles, eq(roles.id, invites.roleId))
    .where(and(isNull(invites.usedAt), gt(invites.expiresAt, now)))
    .orderBy(desc(invites.createdAt))
    .all();
}

export function inviteByTokenHash(core: Core, tokenHash: string): InviteRow | undefined {
  return core.db.select().from(invites).where(eq(invites.tokenHash, tokenHash)).get();
}

/** What the register form shows about an invite: its role's name and the inviter's. */
export function inviteRoleAndInviter(core: Core, row: InviteRow) {
  const role = core.db.select({ name: roles.name }).from(roles).where(eq(roles.id, row.roleId)).get();
  const inviter = row.createdById
    ? core.db.select({ displayName: users.displayName }).from(users).where(eq(users.id, row.createdById)).get()
    : undefined;
  return { roleName: role?.name, inviterName: inviter?.displayName };
}

/** Deletes an unused invite; answers its address, or undefined when there was none to delete. */
export function deleteUnusedInvite(core: Core, id: string): { email: string | null } | undefined {
  return core.db
    .delete(invites)
    .where(and(eq(invites.id, id), isNull(invites.usedAt)))
    .returning({ email: invites.email })
    .get();
}

export function markInviteUsed(core: Core, id: string, usedAt: string): void {
  core.db.update(invites).set({ usedAt }).where(eq(invites.id, id)).run();
}

export function markInviteUsedBy(core: Core, inviteId: string, userId: string): void {
  core.db.update(invites).set({ usedById: userId }).where(eq(invites.id, inviteId)).run();
}

/** Invites that would still give the role at `now`. */
export function countPendingInvitesOfRole(core: Core, roleId: string, now: string): number {
  return core.db
    .select({ n: count() })
    .from(invites)
    .where(and(eq(invites.roleId, roleId), isNull(invites.usedAt), gt(invites.expiresAt, now)))
    .get()!.n;
}

/** Every invite naming the role, used and expired ones too (they go with a deleted role). */
export function deleteInvitesOfRole(core: Core, roleId: string): void {
  core.db.delete(invites).where(eq(invites.roleId, roleId)).run();
}
