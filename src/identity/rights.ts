import { permissionRequired } from "../platform/errors";
import type { Caller } from "./caller";

/** Every instance right, with what it lets a role do (DESIGN.md §5). */
export const RIGHTS = {
  "tokens.use": "Create and use API tokens",
  "spaces.create": "Create spaces",
  "spaces.manage": "See every space's metadata and give yourself Admin on a space (recover access, audited)",
  "spaces.publish": "Make spaces public or private",
  "pages.delete_any": "Delete any page",
  "users.manage": "Manage accounts",
  "users.invite": "Invite people",
  "groups.manage": "Manage groups",
  "roles.manage": "Manage roles",
  "audit.view": "Read the audit log",
  "settings.manage": "Change instance settings",
  "security.manage": "Manage security blocks and alerts",
  "tokens.manage": "See and revoke everyone's API tokens",
  "branding.manage": "Change branding",
  "backups.manage": "Run and configure backups",
  "backups.restore": "Restore backups",
  "dashboard.view": "See the admin dashboard, instance health, version and Tailscale status",
} as const;

export type Right = keyof typeof RIGHTS;
export const ALL_RIGHTS = Object.keys(RIGHTS) as Right[];

export const TIER = { Member: 0, Admin: 1, Owner: 2 } as const;

/** Built-in roles have fixed ids so invites, tests and migrations can name them. */
export const BUILT_IN_ROLES = [
  { id: "00000000-0000-7000-8000-000000000001", name: "User", tier: TIER.Member, description: "Reads and writes in the spaces they are given", permissions: ["tokens.use", "spaces.create"] as Right[] },
  { id: "00000000-0000-7000-8000-000000000002", name: "Administrator", tier: TIER.Admin, description: "Runs the instance day to day", permissions: ALL_RIGHTS.filter((r) => r !== "backups.restore") },
  { id: "00000000-0000-7000-8000-000000000003", name: "Owner", tier: TIER.Owner, description: "Holds every right, including restores", permissions: ALL_RIGHTS },
] as const;

export const ROLE_ID = {
  user: BUILT_IN_ROLES[0].id,
  admin: BUILT_IN_ROLES[1].id,
  owner: BUILT_IN_ROLES[2].id,
} as const;

/** The one function that decides whether a caller holds an instance right. */
export function hasRight(caller: Caller, right: Right): boolean {
  return caller.kind === "user" && caller.permissions.has(right);
}

export function requireRight(caller: Caller, right: Right): void {
  if (!hasRight(caller, right)) throw permissionRequired(right);
}
