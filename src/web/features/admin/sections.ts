/**
 * The sections of the admin area (/admin/<id>), in the order the left list shows them. Each is
 * seen only by accounts whose role holds its right, and its code loads when first opened.
 * A section module's default export is the section component (no props).
 */
import type { ComponentType } from "react";

export interface AdminSection {
  id: string;
  label: string;
  /** The instance right that shows the section (src/identity/rights.ts). */
  right: string;
  load: () => Promise<{ default: ComponentType }>;
}

export const ADMIN_SECTIONS: AdminSection[] = [
  // one line per section; keep the order: dashboard, people, invites, groups, roles, settings,
  // branding, security, tokens, audit, about
];
