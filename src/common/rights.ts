/**
 * Every instance right, its area of the admin area and what it lets a role do
 * (docs/permissions.md, "Roles and rights"). The server decides with them (src/identity/rights.ts,
 * hasRight) and the web UI shows or hides what they unlock; both read this one list.
 * Imports nothing: src/web imports it too.
 */
/** The parts of the admin area a right belongs to (the rows of the rights matrix are grouped by them). */
export const RIGHT_AREAS = [
  "people",
  "roles",
  "settings",
  "branding",
  "security",
  "tokens",
  "dashboard",
  "spaces",
  "content",
  "backups",
  "audit",
] as const;
export type RightArea = (typeof RIGHT_AREAS)[number];

/**
 * Every instance right: its area and what it lets a role do (docs/permissions.md, "Roles and
 * rights").
 */
export const RIGHT_CATALOGUE = {
  "users.manage": {
    area: "people",
    description: "Manage accounts: roles, suspension, password resets, sessions, tokens and lockouts of other people",
  },
  "users.invite": { area: "people", description: "Invite people" },
  "groups.manage": { area: "people", description: "Manage groups" },
  "roles.manage": { area: "roles", description: "Manage roles and the rights they hold" },
  "settings.manage": {
    area: "settings",
    description: "Change instance settings (name, registration, public spaces, e-mail, single sign-on, images and embeds)",
  },
  "branding.manage": { area: "branding", description: "Change branding" },
  "security.manage": {
    area: "security",
    description: "Manage security blocks and alerts, sign-in limits, lockout, trusted proxies and two-factor policy",
  },
  "tokens.use": { area: "tokens", description: "Create and use API tokens" },
  "tokens.manage": { area: "tokens", description: "See and revoke everyone's API tokens" },
  "dashboard.view": { area: "dashboard", description: "See the admin dashboard, instance health, version and Tailscale status" },
  "spaces.create": { area: "spaces", description: "Create spaces" },
  "spaces.manage": {
    area: "spaces",
    description: "See every space's metadata and give yourself Admin on a space (recover access, audited)",
  },
  "spaces.publish": { area: "spaces", description: "Make spaces public or private" },
  "pages.delete_any": { area: "content", description: "Delete any page" },
  "backups.manage": { area: "backups", description: "Run and configure backups" },
  "backups.restore": { area: "backups", description: "Restore backups" },
  "audit.view": { area: "audit", description: "Read the audit log" },
} as const satisfies Record<string, { area: RightArea; description: string }>;

/** Every instance right with its description. */
export const RIGHTS = Object.fromEntries(Object.entries(RIGHT_CATALOGUE).map(([k, v]) => [k, v.description])) as {
  [K in keyof typeof RIGHT_CATALOGUE]: string;
};

export type Right = keyof typeof RIGHT_CATALOGUE;
export const ALL_RIGHTS = Object.keys(RIGHT_CATALOGUE) as Right[];

export const isRight = (key: string): key is Right => Object.hasOwn(RIGHT_CATALOGUE, key);
