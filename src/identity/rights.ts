import { permissionRequired } from "../platform/errors";
import type { Caller } from "./caller";

/** The parts of the admin area a right belongs to (the rows of the rights matrix are grouped by them). */
export const RIGHT_AREAS = ["people", "roles", "settings", "branding", "security", "tokens", "dashboard", "spaces", "content", "backups", "audit"] as const;
export type RightArea = (typeof RIGHT_AREAS)[number];

/**
 * Every instance right: its area and what it lets a role do (docs/permissions.md, "Roles and
 * rights").
 */
export const RIGHT_CATALOGUE = {
  "users.manage": { area: "people", description: "Manage accounts: roles, suspension, password resets, sessions, tokens and lockouts of other people" },
  "users.invite": { area: "people", description: "Invite people" },
  "groups.manage": { area: "people", description: "Manage groups" },
  "roles.manage": { area: "roles", description: "Manage roles and the rights they hold" },
  "settings.manage": { area: "settings", description: "Change instance settings (name, registration, public spaces, e-mail, single sign-on, images and embeds)" },
  "branding.manage": { area: "branding", description: "Change branding" },
  "security.manage": { area: "security", description: "Manage security blocks and alerts, sign-in limits, lockout, trusted proxies and two-factor policy" },
  "tokens.use": { area: "tokens", description: "Create and use API tokens" },
  "tokens.manage": { area: "tokens", description: "See and revoke everyone's API tokens" },
  "dashboard.view": { area: "dashboard", description: "See the admin dashboard, instance health, version and Tailscale status" },
  "spaces.create": { area: "spaces", description: "Create spaces" },
  "spaces.manage": { area: "spaces", description: "See every space's metadata and give yourself Admin on a space (recover access, audited)" },
  "spaces.publish": { area: "spaces", description: "Make spaces public or private" },
  "pages.delete_any": { area: "content", description: "Delete any page" },
  "backups.manage": { area: "backups", description: "Run and configure backups" },
  "backups.restore": { area: "backups", description: "Restore backups" },
  "audit.view": { area: "audit", description: "Read the audit log" },
} as const satisfies Record<string, { area: RightArea; description: string }>;

/** Every instance right with its description. */
export const RIGHTS = Object.fromEntries(Object.entries(RIGHT_CATALOGUE).map(([k, v]) => [k, v.description])) as { [K in keyof typeof RIGHT_CATALOGUE]: string };

export type Right = keyof typeof RIGHT_CATALOGUE;
export const ALL_RIGHTS = Object.keys(RIGHT_CATALOGUE) as Right[];

export const isRight = (key: string): key is Right => Object.hasOwn(RIGHT_CATALOGUE, key);

/**
 * The Owner role's rights that can never be removed: whoever owns the instance can always
 * fix roles, people, blocks, read what happened and restore a backup, whatever else was done
 * to the Owner role.
 */
export const OWNER_RESERVED_RIGHTS: readonly Right[] = ["roles.manage", "users.manage", "security.manage", "audit.view", "backups.restore"];

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
