/**
 * Roles and the rights they hold (docs/permissions.md, "Roles and rights"). Every action needs
 * roles.manage. Rules beyond the right:
 * - only the owner changes the Owner role, and nobody changes a role of a higher tier than
 *   their own (a Member-tier holder of roles.manage cannot touch the Administrator role);
 * - nobody but the owner grants a right they do not hold themselves (no climbing by roles);
 * - the Owner role's reserved rights (OWNER_RESERVED_RIGHTS) can never be removed;
 * - changing rights (permissions, reset) needs a recent re-authentication;
 * - a role takes effect on the next request: callers are resolved from the database on every
 *   request (sessions) or from a cache every write empties (tokens).
 */
import { requireReauth } from "../auth/service";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { requireUser, type Caller, type RoleRow, type UserCaller } from "../identity/caller";
import {
  ALL_RIGHTS,
  BUILT_IN_ROLES,
  isRight,
  OWNER_RESERVED_RIGHTS,
  RIGHT_AREAS,
  RIGHT_CATALOGUE,
  ROLE_ID,
  TIER,
  requireRight,
  type Right,
} from "../identity/rights";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { AppError, invalid, notFound } from "../platform/errors";
import { singleLine } from "../platform/text";
import { countPendingInvitesOfRole, deleteInvitesOfRole } from "../users/store/invites";
import {
  accountsHoldingRole,
  accountsPerRole,
  allRoles,
  countRoles,
  deleteRole as deleteRoleRow,
  insertRoles,
  roleById,
  updateRole as updateRoleRow,
} from "../users/store/roles";
import { insertRoleReview, latestRoleReview, roleNameTaken } from "./store";
import { ROLE_DESCRIPTION_MAX, ROLE_NAME_MAX } from "../common/limits";

export { ROLE_NAME_MAX };
export { ROLE_DESCRIPTION_MAX };

const inCatalogueOrder = (rights: Iterable<string>) => {
  const held = new Set(rights);
  return ALL_RIGHTS.filter((r) => held.has(r));
};

const defaultsOf = (id: string): readonly Right[] | null => BUILT_IN_ROLES.find((r) => r.id === id)?.permissions ?? null;

function toView(role: RoleRow, accounts: number) {
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    tier: role.tier,
    builtIn: role.builtIn,
    permissions: inCatalogueOrder(role.permissions),
    accounts,
    reserved: role.id === ROLE_ID.owner ? [...OWNER_RESERVED_RIGHTS] : [],
    defaults: defaultsOf(role.id) ? inCatalogueOrder(defaultsOf(role.id)!) : null,
  };
}

export type RoleView = ReturnType<typeof toView>;

function accountsOf(core: Core, roleId: string): number {
  return accountsHoldingRole(core, roleId);
}

function manager(caller: Caller): UserCaller {
  const user = requireUser(caller);
  requireRight(user, "roles.manage");
  return user;
}

function findRole(core: Core, id: string): RoleRow {
  const role = roleById(core, id);
  if (!role) throw notFound("No such role");
  return role;
}

/** Only the owner changes the Owner role; nobody changes a role above their own tier. */
function requireMayChange(user: UserCaller, role: RoleRow): void {
  if (role.id === ROLE_ID.owner && user.role.tier !== TIER.Owner)
    throw new AppError("forbidden", { detail: "Only the owner changes the Owner role." });
  if (role.tier > user.role.tier) throw new AppError("forbidden", { detail: `The ${role.name} role is above your own role's tier.` });
}

/** Nobody but the owner grants a right they do not hold. */
function requireMayGrant(user: UserCaller, rights: readonly string[]): void {
  if (user.role.tier === TIER.Owner) return;
  const missing = rights.filter((r) => !user.permissions.has(r));
  if (missing.length)
    throw new AppError("forbidden", {
      detail: `You can only grant rights you hold yourself; you do not hold ${missing.join(", ")}.`,
      extra: { rights: missing },
    });
}

function cleanName(name: string): string {
  const n = singleLine("name", name).trim().replace(/\s+/g, " ");
  if (!n) throw invalid("name", "must not be blank");
  if (n.length > ROLE_NAME_MAX) throw invalid("name", `must be at most ${ROLE_NAME_MAX} characters`);
  return n;
}

function cleanDescription(description: string): string {
  const d = singleLine("description", description).trim();
  if (d.length > ROLE_DESCRIPTION_MAX) throw invalid("description", `must be at most ${ROLE_DESCRIPTION_MAX} characters`);
  return d;
}

function requireFreeName(core: Core, name: string, exceptId: string | null): void {
  if (roleNameTaken(core, name, exceptId))
    throw new AppError("conflict", { field: "name", detail: `A role named "${name}" already exists.` });
}

const audit = (
  core: Core,
  user: UserCaller,
  type: "role.created" | "role.updated" | "role.deleted" | "role.permissions_changed" | "role.reset",
  role: RoleRow,
  data: Record<string, unknown>,
) =>
  recordEvent(core, {
    type,
    targetType: "role",
    targetId: role.id,
    spaceId: null,
    actorId: user.user.id,
    ip: user.ip,
    data: { name: role.name, ...data },
  });

/** GET /api/admin/roles: every role (built-in first, then custom by name), the rights catalogue and the last review. */
export function listRoles(core: Core, caller: Caller) {
  manager(caller);
  const counts = accountsPerRole(core);
  const builtInOrder = BUILT_IN_ROLES.map((r) => r.id as string);
  const all = allRoles(core).sort((a, b) =>
    a.builtIn === b.builtIn
      ? a.builtIn
        ? builtInOrder.indexOf(a.id) - builtInOrder.indexOf(b.id)
        : a.name.localeCompare(b.name)
      : a.builtIn
        ? -1
        : 1,
  );
  const review = latestRoleReview(core);
  return {
    roles: all.map((r) => toView(r, counts.get(r.id) ?? 0)),
    areas: [...RIGHT_AREAS],
    rights: ALL_RIGHTS.map((key) => ({ key, area: RIGHT_CATALOGUE[key].area, description: RIGHT_CATALOGUE[key].description })),
    reviewedAt: review?.reviewedAt ?? null,
    reviewedBy: review?.id ? { id: review.id, displayName: review.displayName! } : null,
  };
}

export interface NewRole {
  name: string;
  description?: string;
  tier: number;
  copyFrom?: string;
}

/** POST /api/admin/roles: a custom role of the Member or Admin tier, empty or with another role's rights. */
export function createRole(core: Core, caller: Caller, input: NewRole): RoleView {
  const user = manager(caller);
  const name = cleanName(input.name);
  const description = cleanDescription(input.description ?? "");
  if (input.tier !== TIER.Member && input.tier !== TIER.Admin)
    throw invalid("tier", "must be 0 (Member) or 1 (Admin): a custom role cannot be of the Owner tier");
  if (input.tier > user.role.tier)
    throw new AppError("forbidden", { field: "tier", detail: "You cannot create a role above your own role's tier." });
  let permissions: string[] = [];
  if (input.copyFrom !== undefined) {
    const source = roleById(core, input.copyFrom);
    if (!source) throw invalid("copyFrom", "is not a role");
    permissions = inCatalogueOrder(source.permissions);
    requireMayGrant(user, permissions);
  }
  return core.tx(() => {
    requireFreeName(core, name, null);
    const row: RoleRow = {
      id: newId(),
      name,
      description,
      tier: input.tier,
      builtIn: false,
      permissions,
      offered: null,
      createdAt: iso(core.clock.now()),
    };
    insertRoles(core, [row]);
    audit(core, user, "role.created", row, { tier: row.tier, permissions, copyFrom: input.copyFrom ?? null });
    return toView(row, 0);
  });
}

/** PUT /api/admin/roles/{id}: name and description. A built-in role keeps its name. */
export function updateRole(core: Core, caller: Caller, id: string, input: { name?: string; description?: string }): RoleView {
  const user = manager(caller);
  const role = findRole(core, id);
  requireMayChange(user, role);
  if (input.name === undefined && input.description === undefined)
    throw new AppError("validation_failed", { detail: "Send name, description or both." });
  const name = input.name === undefined ? role.name : cleanName(input.name);
  const description = input.description === undefined ? role.description : cleanDescription(input.description);
  if (role.builtIn && name !== role.name) throw invalid("name", `a built-in role keeps its name (${role.name})`);
  return core.tx(() => {
    requireFreeName(core, name, role.id);
    if (name !== role.name || description !== role.description) {
      updateRoleRow(core, id, { name, description });
      audit(core, user, "role.updated", role, { from: { name: role.name, description: role.description }, to: { name, description } });
    }
    return toView({ ...role, name, description }, accountsOf(core, id));
  });
}

/**
 * DELETE /api/admin/roles/{id}: custom roles only, and only while no account holds it and no
 * pending invite would give it (409 says how many). Used or expired invites that named the
 * role go with it: they can give nothing any more.
 */
export function deleteRole(core: Core, caller: Caller, id: string): void {
  const user = manager(caller);
  const role = findRole(core, id);
  requireMayChange(user, role);
  if (role.builtIn) throw new AppError("conflict", { detail: `${role.name} is a built-in role: it cannot be deleted.` });
  core.tx(() => {
    const held = accountsOf(core, id);
    if (held > 0)
      throw new AppError("conflict", {
        detail:
          `${held} account${held === 1 ? "" : "s"} hold${held === 1 ? "s" : ""} the role ` +
          `${role.name}: give ${held === 1 ? "it" : "them"} another role first.`,
        extra: { accounts: held },
      });
    const now = iso(core.clock.now());
    const pending = countPendingInvitesOfRole(core, id, now);
    if (pending > 0)
      throw new AppError("conflict", {
        detail:
          `${pending} pending invite${pending === 1 ? "" : "s"} would give the role ` +
          `${role.name}: withdraw ${pending === 1 ? "it" : "them"} first.`,
        extra: { invites: pending },
      });
    deleteInvitesOfRole(core, id);
    deleteRoleRow(core, id);
    audit(core, user, "role.deleted", role, { tier: role.tier, permissions: role.permissions });
  });
}

function writePermissions(
  core: Core,
  user: UserCaller,
  role: RoleRow,
  next: string[],
  type: "role.permissions_changed" | "role.reset",
): RoleView {
  const added = next.filter((r) => !role.permissions.includes(r));
  const removed = role.permissions.filter((r) => !next.includes(r));
  requireMayGrant(user, added);
  return core.tx(() => {
    if (added.length || removed.length || type === "role.reset") {
      updateRoleRow(core, role.id, { permissions: next });
      audit(core, user, type, role, { added, removed });
    }
    return toView({ ...role, permissions: next }, accountsOf(core, role.id));
  });
}

/** PUT /api/admin/roles/{id}/permissions: the whole list of rights (re-authentication). */
export function setPermissions(core: Core, caller: Caller, id: string, permissions: string[]): RoleView {
  const user = manager(caller);
  const role = findRole(core, id);
  requireMayChange(user, role);
  requireReauth(core, user);
  const unknown = permissions.filter((p) => !isRight(p));
  if (unknown.length)
    throw invalid("permissions", `name rights that do not exist: ${unknown.join(", ")} (GET /api/admin/roles lists them)`);
  const next = inCatalogueOrder(permissions);
  if (role.id === ROLE_ID.owner) {
    const lost = OWNER_RESERVED_RIGHTS.filter((r) => !next.includes(r));
    if (lost.length) throw invalid("permissions", `the Owner role always keeps ${lost.join(", ")}`);
  }
  return writePermissions(core, user, role, next, "role.permissions_changed");
}

/** POST /api/admin/roles/{id}/reset: a built-in role back to its default rights (re-authentication). */
export function resetRole(core: Core, caller: Caller, id: string): RoleView {
  const user = manager(caller);
  const role = findRole(core, id);
  requireMayChange(user, role);
  const defaults = defaultsOf(role.id);
  if (!defaults) throw new AppError("conflict", { detail: `${role.name} is a custom role: it has no defaults to go back to.` });
  requireReauth(core, user);
  return writePermissions(core, user, role, inCatalogueOrder(defaults), "role.reset");
}

/** POST /api/admin/roles/review: records that the caller reviewed the rights matrix, now. */
export function reviewRoles(core: Core, caller: Caller): { reviewedAt: string; reviewedBy: { id: string; displayName: string } } {
  const user = manager(caller);
  return core.tx(() => {
    const row = { id: newId(), reviewedAt: iso(core.clock.now()), reviewedById: user.user.id };
    insertRoleReview(core, row);
    recordEvent(core, {
      type: "roles.reviewed",
      targetType: "role",
      targetId: row.id,
      spaceId: null,
      actorId: user.user.id,
      ip: user.ip,
      data: { roles: countRoles(core) },
    });
    return { reviewedAt: row.reviewedAt, reviewedBy: { id: user.user.id, displayName: user.user.displayName } };
  });
}
