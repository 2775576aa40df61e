import { requireRight } from "../identity/rights";
import type { UserCaller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent, type EventType } from "../events/outbox";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { AppError, invalid, notFound } from "../platform/errors";
import { multiLine, singleLine } from "../platform/text";
import { withAvatarUrl } from "../users/avatars";
import { accountColumns, activeAccountsFromTier } from "../users/store/accounts";
import { BUILT_IN_GROUPS, builtInGroup, builtInGroupIdsForTier } from "../identity/builtin-groups";
import * as store from "./store";
import type { GroupRow } from "./store";
import { GROUP_DESCRIPTION_MAX, GROUP_NAME_MAX } from "../common/limits";

export function ensureBuiltInGroups(core: Core): void {
  core.tx(() => {
    const now = iso(core.clock.now());
    const rows = BUILT_IN_GROUPS.map((g) => ({
      id: g.id,
      name: g.name,
      nameKey: g.name.toLowerCase(),
      description: g.description,
      builtIn: true,
      createdAt: now,
      updatedAt: now,
    }));
    store.insertGroups(core, rows, true);
  });
}

const builtInRefusal = () =>
  new AppError("forbidden", {
    detail: "Built-in groups cannot be renamed, deleted or edited: their membership follows each account's role.",
  });

function activeUsersWithTier(core: Core, minTier: number) {
  return activeAccountsFromTier(core, minTier).map(withAvatarUrl);
}

function memberCount(core: Core, group: GroupRow): number {
  const builtIn = builtInGroup(group.id);
  if (builtIn) return activeUsersWithTier(core, builtIn.minTier).length;
  return store.countMembers(core, group.id);
}

function toGroup(core: Core, row: GroupRow) {
  return { id: row.id, name: row.name, description: row.description, builtIn: row.builtIn, memberCount: memberCount(core, row) };
}

function getRow(core: Core, id: string): GroupRow {
  const row = store.groupById(core, id);
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
  const clash = store.groupIdByNameKey(core, name.toLowerCase());
  if (clash && clash !== exceptId) throw new AppError("conflict", { field: "name", detail: `A group named "${name}" already exists.` });
}

function groupEvent(core: Core, caller: UserCaller, type: EventType, groupId: string, data: Record<string, unknown>): void {
  recordEvent(core, { type, targetType: "group", targetId: groupId, spaceId: null, actorId: caller.user.id, ip: caller.ip, data });
}

export function listGroups(core: Core) {
  return store.allGroups(core).map((g) => toGroup(core, g));
}

export function createGroup(core: Core, caller: UserCaller, input: { name: string; description?: string }) {
  requireRight(caller, "groups.manage");
  const name = checkName(input.name);
  const description = checkDescription(input.description);
  return core.tx(() => {
    assertNameFree(core, name, null);
    const now = iso(core.clock.now());
    const row = { id: newId(), name, nameKey: name.toLowerCase(), description, builtIn: false, createdAt: now, updatedAt: now };
    store.insertGroups(core, [row]);
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
    store.updateGroup(core, id, { name, nameKey: name.toLowerCase(), description, updatedAt: iso(core.clock.now()) });
    groupEvent(core, caller, "group.updated", id, {
      name: { from: row.name, to: name },
      description: { from: row.description, to: description },
    });
    return toGroup(core, getRow(core, id));
  });
}

export function deleteGroup(core: Core, caller: UserCaller, id: string): void {
  requireRight(caller, "groups.manage");
  core.tx(() => {
    const row = getRow(core, id);
    if (row.builtIn) throw builtInRefusal();
    store.deleteGroup(core, id);
    groupEvent(core, caller, "group.deleted", id, { name: row.name });
  });
}

export function listMembers(core: Core, id: string) {
  const row = getRow(core, id);
  const builtIn = builtInGroup(row.id);
  if (builtIn) return activeUsersWithTier(core, builtIn.minTier);
  return store.membersOf(core, id).map(withAvatarUrl);
}

export function addMember(core: Core, caller: UserCaller, id: string, userId: string): void {
  requireRight(caller, "groups.manage");
  core.tx(() => {
    if (getRow(core, id).builtIn) throw builtInRefusal();
    const user = accountColumns(core, userId, ["id"]);
    if (!user) throw invalid("userId", "is not an account on this instance");
    const added = store.addMember(core, id, userId, iso(core.clock.now()));
    // Adding someone already in the group is harmless and changes nothing, so records nothing.
    if (added) groupEvent(core, caller, "group.member_added", id, { userId });
  });
}

export function removeMember(core: Core, caller: UserCaller, id: string, userId: string): void {
  requireRight(caller, "groups.manage");
  core.tx(() => {
    if (getRow(core, id).builtIn) throw builtInRefusal();
    if (!store.removeMember(core, id, userId)) throw notFound();
    groupEvent(core, caller, "group.member_removed", id, { userId });
  });
}

/** Every group an account belongs to: the built-ins of its tier plus its custom groups. */
export function groupIdsOf(core: Core, userId: string, tier: number): string[] {
  return [...builtInGroupIdsForTier(tier), ...store.customGroupIdsOf(core, userId)];
}

export function groupsExist(core: Core, ids: string[]): boolean {
  if (ids.length === 0) return true;
  return store.countGroupsAmong(core, ids) === new Set(ids).size;
}
