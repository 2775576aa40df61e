import { and, asc, count, eq, gte, inArray } from "drizzle-orm";
import { requireRight } from "../identity/rights";
import type { UserCaller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent, type EventType } from "../events/outbox";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { AppError, invalid, notFound } from "../platform/errors";
import { multiLine, singleLine } from "../platform/text";
import { USER_STATUS } from "../users/service";
import { withAvatarUrl } from "../users/avatars";
import { roles, users } from "../users/tables";
import { BUILT_IN_GROUPS, builtInGroup, builtInGroupIdsForTier } from "../identity/builtin-groups";
import { groupMembers, groups } from "./tables";
import { GROUP_DESCRIPTION_MAX, GROUP_NAME_MAX } from "../shared/limits";

type GroupRow = typeof groups.$inferSelect;

export function ensureBuiltInGroups(core: Core): void {
  core.tx(() => {
    const now = iso(core.clock.now());
    for (const g of BUILT_IN_GROUPS) {
      core.db.insert(groups).values({ id: g.id, name: g.name, nameKey: g.name.toLowerCase(), description: g.description, builtIn: true, createdAt: now, updatedAt: now }).onConflictDoNothing().run();
    }
  });
}

const builtInRefusal = () =>
  new AppError("forbidden", { detail: "Built-in groups cannot be renamed, deleted or edited: their membership follows each account's role." });

function activeUsersWithTier(core: Core, minTier: number) {
  return core.db
    .select({ id: users.id, displayName: users.displayName, email: users.email, avatarSha256: users.avatarSha256, avatarVariant: users.avatarVariant })
    .from(users)
    .innerJoin(roles, eq(users.roleId, roles.id))
    .where(and(eq(users.status, USER_STATUS.Active), gte(roles.tier, minTier)))
    .orderBy(asc(users.displayName))
    .all()
    .map(withAvatarUrl);
}

function memberCount(core: Core, group: GroupRow): number {
  const builtIn = builtInGroup(group.id);
  if (builtIn) return activeUsersWithTier(core, builtIn.minTier).length;
  return core.db.select({ n: count() }).from(groupMembers).where(eq(groupMembers.groupId, group.id)).get()!.n;
}

function toGroup(core: Core, row: GroupRow) {
  return { id: row.id, name: row.name, description: row.description, builtIn: row.builtIn, memberCount: memberCount(core, row) };
}

function getRow(core: Core, id: string): GroupRow {
  const row = core.db.select().from(groups).where(eq(groups.id, id)).get();
  if (!row) throw notFound();
  return row;
}

export { GROUP_NAME_MAX };
export { GROUP_DESCRIPTION_MAX };

/** One line: control characters are refused as sent (platform/text.ts), then spaces collapse. */
function checkName(name: string): string {
  const n = singleLine("name", name).trim().replace(/\s+/g, " ");
  if (!n) throw invalid("name", "must not be blank");
  if (n.length > GROUP_NAME_MAX) throw invalid("name", `must be at most ${GROUP_NAME_MAX} characters`);
  return n;
}

/** Several lines of prose: tab and line feed are the only controls allowed. */
function checkDescription(description: string | undefined): string {
  const d = multiLine("description", description ?? "").trim();
  if (d.length > GROUP_DESCRIPTION_MAX) throw invalid("description", `must be at most ${GROUP_DESCRIPTION_MAX} characters`);
  return d;
}

function assertNameFree(core: Core, name: string, exceptId: string | null) {
  const clash = core.db.select({ id: groups.id }).from(groups).where(eq(groups.nameKey, name.toLowerCase())).get();
  if (clash && clash.id !== exceptId) throw new AppError("conflict", { field: "name", detail: `A group named "${name}" already exists.` });
}

function groupEvent(core: Core, caller: UserCaller, type: EventType, groupId: string, data: Record<string, unknown>): void {
  recordEvent(core, { type, targetType: "group", targetId: groupId, spaceId: null, actorId: caller.user.id, ip: caller.ip, data });
}

export function listGroups(core: Core) {
  return core.db.select().from(groups).orderBy(asc(groups.builtIn), asc(groups.nameKey)).all().map((g) => toGroup(core, g));
}

export function createGroup(core: Core, caller: UserCaller, input: { name: string; description?: string }) {
  requireRight(caller, "groups.manage");
  const name = checkName(input.name);
  const description = checkDescription(input.description);
  return core.tx(() => {
    assertNameFree(core, name, null);
    const now = iso(core.clock.now());
    const row = { id: newId(), name, nameKey: name.toLowerCase(), description, builtIn: false, createdAt: now, updatedAt: now };
    core.db.insert(groups).values(row).run();
    groupEvent(core, caller, "group.created", row.id, { name, description });
    return toGroup(core, row);
  });
}

export function updateGroup(core: Core, caller: UserCaller, id: string, input: { name?: string; description?: string }) {
  requireRight(caller, "groups.manage");
  return core.tx(() => {
    const row = getRow(core, id);
    if (row.builtIn) throw builtInRefusal();
    const name = input.name === undefined ? row.name : checkName(input.name);
    const description = input.description === undefined ? row.description : checkDescription(input.description);
    assertNameFree(core, name, id);
    core.db.update(groups).set({ name, nameKey: name.toLowerCase(), description, updatedAt: iso(core.clock.now()) }).where(eq(groups.id, id)).run();
    groupEvent(core, caller, "group.updated", id, { name: { from: row.name, to: name }, description: { from: row.description, to: description } });
    return toGroup(core, getRow(core, id));
  });
}

export function deleteGroup(core: Core, caller: UserCaller, id: string): void {
  requireRight(caller, "groups.manage");
  core.tx(() => {
    const row = getRow(core, id);
    if (row.builtIn) throw builtInRefusal();
    core.db.delete(groups).where(eq(groups.id, id)).run();
    groupEvent(core, caller, "group.deleted", id, { name: row.name });
  });
}

export function listMembers(core: Core, id: string) {
  const row = getRow(core, id);
  const builtIn = builtInGroup(row.id);
  if (builtIn) return activeUsersWithTier(core, builtIn.minTier);
  return core.db
    .select({ id: users.id, displayName: users.displayName, email: users.email, avatarSha256: users.avatarSha256, avatarVariant: users.avatarVariant })
    .from(groupMembers)
    .innerJoin(users, eq(groupMembers.userId, users.id))
    .where(eq(groupMembers.groupId, id))
    .orderBy(asc(users.displayName))
    .all()
    .map(withAvatarUrl);
}

export function addMember(core: Core, caller: UserCaller, id: string, userId: string): void {
  requireRight(caller, "groups.manage");
  core.tx(() => {
    if (getRow(core, id).builtIn) throw builtInRefusal();
    const user = core.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).get();
    if (!user) throw invalid("userId", "is not an account on this instance");
    const added = core.db.insert(groupMembers).values({ groupId: id, userId, addedAt: iso(core.clock.now()) }).onConflictDoNothing().returning({ userId: groupMembers.userId }).get();
    // Adding someone already in the group is harmless and changes nothing, so records nothing.
    if (added) groupEvent(core, caller, "group.member_added", id, { userId });
  });
}

export function removeMember(core: Core, caller: UserCaller, id: string, userId: string): void {
  requireRight(caller, "groups.manage");
  core.tx(() => {
    if (getRow(core, id).builtIn) throw builtInRefusal();
    const gone = core.db.delete(groupMembers).where(and(eq(groupMembers.groupId, id), eq(groupMembers.userId, userId))).returning({ userId: groupMembers.userId }).get();
    if (!gone) throw notFound();
    groupEvent(core, caller, "group.member_removed", id, { userId });
  });
}

/** Every group an account belongs to: the built-ins of its tier plus its custom groups. */
export function groupIdsOf(core: Core, userId: string, tier: number): string[] {
  const custom = core.db.select({ id: groupMembers.groupId }).from(groupMembers).where(eq(groupMembers.userId, userId)).all();
  return [...builtInGroupIdsForTier(tier), ...custom.map((r) => r.id)];
}

export function groupsExist(core: Core, ids: string[]): boolean {
  if (ids.length === 0) return true;
  return core.db.select({ n: count() }).from(groups).where(inArray(groups.id, ids)).get()!.n === new Set(ids).size;
}
