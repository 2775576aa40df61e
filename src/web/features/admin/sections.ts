/**
 * The sections of the admin area (/admin/<id>), in the order the left list shows them. Each is
 * seen only by accounts whose role holds its right, and its code loads when first opened.
 * A section module's default export is the section component (no props).
 */
import { createElement, type ComponentType } from "react";
import type { Right } from "../../../common/rights";

export interface AdminSection {
  id: string;
  label: string;
  /** The instance right that shows the section (src/common/rights.ts). */
  right: Right;
  load: () => Promise<{ default: ComponentType }>;
}

export const ADMIN_SECTIONS: AdminSection[] = [
  // one line per section; the list shows them in ORDER below
  { id: "dashboard", label: "Dashboard", right: "dashboard.view", load: () => import("./dashboard/DashboardSection") },
  { id: "tokens", label: "API tokens", right: "tokens.manage", load: () => import("./tokens/TokensSection") },
  { id: "people", label: "People", right: "users.manage", load: () => import("./people/PeopleSection") },
  {
    id: "invites",
    label: "Invites",
    right: "users.invite",
    load: () => import("../people/InvitesSection").then((m) => ({ default: m.InvitesSection })),
  },
  {
    id: "groups",
    label: "Groups",
    right: "groups.manage",
    load: () => import("../people/GroupsSection").then((m) => ({ default: () => createElement(m.GroupsSection, { canManage: true }) })),
  },
  {
    id: "audit",
    label: "Audit log",
    right: "audit.view",
    load: () => import("../audit/AuditSection").then((m) => ({ default: m.AuditSection })),
  },
  { id: "spaces", label: "Spaces", right: "spaces.manage", load: () => import("./spaces/SpacesSection") },
  { id: "roles", label: "Roles", right: "roles.manage", load: () => import("./roles/RolesSection") },
  { id: "settings", label: "Settings", right: "settings.manage", load: () => import("./settings/SettingsSection") },
  { id: "branding", label: "Branding", right: "branding.manage", load: () => import("./branding/BrandingSection") },
  { id: "security", label: "Security", right: "security.manage", load: () => import("./security/SecuritySection") },
  { id: "backups", label: "Backups", right: "backups.manage", load: () => import("./backups/BackupsSection") },
  { id: "about", label: "About", right: "dashboard.view", load: () => import("./about/AboutSection") },
];

const ORDER = [
  "dashboard",
  "people",
  "invites",
  "groups",
  "spaces",
  "roles",
  "settings",
  "branding",
  "security",
  "backups",
  "tokens",
  "audit",
  "about",
];

/** The sections an account with these rights sees, in the list's order. */
export function visibleSections(permissions: readonly string[]): AdminSection[] {
  return ADMIN_SECTIONS.filter((s) => permissions.includes(s.right)).sort((a, b) => rank(a.id) - rank(b.id));
}
const rank = (id: string) => ORDER.indexOf(id) + 1 || ORDER.length + 1;

/** Whether the account menu offers the admin area. */
export const seesAdmin = (permissions: readonly string[]) => visibleSections(permissions).length > 0;
