/** The groups' store: the only module that writes `groups` and `group_members`. */
import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { Core } from "../core";
import { users } from "../users/tables";
import { groupMembers, groups } from "./tables";

export type GroupRow = typeof groups.$inferSelect;

/** Inserts groups; with `ifAbsent`, a group whose id exists is left as it is. */
export function insertGroups(core: Core, rows: GroupRow[], ifAbsent = false): void {
  for (const row of rows) {
    const insert = core.db.insert(groups).values(row);
    (ifAbsent ? insert.onConflictDoNothing() : insert).run();
  }
}

export function groupById(core: Core, id: string): GroupRow | undefined {
  return core.db.select().from(groups).where(eq(groups.id, id)).get();
}

export function groupIdByNameKey(core: Core, nameKey: string): string | undefined {
  return core.db.select({ id: groups.id }).from(groups).where(eq(groups.nameKey, nameKey)).get()?.id;
}

/** Every group, built-in ones first, then by name. */
export function allGroups(core: Core): GroupRow[] {
  return core.db.select().from(groups).orderBy(asc(groups.builtIn), asc(groups.nameKey)).all();
}

export function updateGroup(core: Core, id: string, change: Pick<GroupRow, "name" | "nameKey" | "description" | "updatedAt">): void {
  core.db.update(groups).set(change).where(eq(groups.id, id)).run();
}

export function deleteGroup(core: Core, id: string): void {
  core.db.delete(groups).where(eq(groups.id, id)).run();
}

export function countMembers(core: Core, groupId: string): number {
  return core.db.select({ n: count() }).from(groupMembers).where(eq(groupMembers.groupId, groupId)).get()!.n;
}

/** A custom group's members, by name. */
export function membersOf(core: Core, groupId: string) {
  return core.db
    .select({
      id: users.id,
      displayName: users.displayName,
      email: users.email,
      avatarSha256: users.avatarSha256,
      avatarVariant: users.avatarVariant,
    })
    .from(groupMembers)
    .innerJoin(users, eq(groupMembers.userId, users.id))
    .where(eq(groupMembers.groupId, groupId))
    .orderBy(asc(users.displayName))
    .all();
}

/** Adds a member; answers false when they were in the group already. */
export function addMember(core: Core, groupId: string, userId: string, addedAt: string): boolean {
  return !!core.db
    .insert(groupMembers)
    .values({ groupId, userId, addedAt })
    .onConflictDoNothing()
    .returning({ userId: groupMembers.userId })
    .get();
}

/** Removes a member; answers false when they were not in the group. */
export function removeMember(core: Core, groupId: string, userId: string): boolean {
  return !!core.db
    .delete(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)))
    .returning({ userId: groupMembers.userId })
    .get();
}

/** The custom groups an account is in. */
export function customGroupIdsOf(core: Core, userId: string): string[] {
  return core.db
    .select({ id: groupMembers.groupId })
    .from(groupMembers)
    .where(eq(groupMembers.userId, userId))
    .all()
    .map((r) => r.id);
}

/** How many of these ids are groups. */
export function countGroupsAmong(core: Core, ids: string[]): number {
  return core.db.select({ n: count() }).from(groups).where(inArray(groups.id, ids)).get()!.n;
}

export function groupExists(core: Core, id: string): boolean {
  return !!core.db.select({ id: groups.id }).from(groups).where(eq(groups.id, id)).get();
}

/** Names of groups, by id (one statement). */
export function groupNamesOf(core: Core, ids: string[]): Map<string, string> {
  return new Map(
    ids.length
      ? core.db
          .select({ id: groups.id, name: groups.name })
          .from(groups)
          .where(inArray(groups.id, ids))
          .all()
          .map((g) => [g.id, g.name])
      : [],
  );
}
