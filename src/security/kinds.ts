/**
 * What counts as a security event, by kind. Security events are not rows of their own: they are
 * the audit log's entries of these actions (written in the change's own transaction already),
 * read through a kind and a severity worked out from the action and its details (queries.ts).
 * Actions other areas add later (role changes, restores) join by name as they appear in
 * EVENT_TYPES, so this list needs no edit when they land.
 */
import { EVENT_TYPES } from "../events/outbox";

const named = (pattern: RegExp) => EVENT_TYPES.filter((t) => pattern.test(t));

/**
 * Role and tier changes, ownership transfers, a role's rights changed (the people and roles areas
 * of the rights catalogue, identity/rights.ts).
 */
export const ROLE_ACTIONS: string[] = named(/^(role\.|user\.(role|tier|ownership|promoted|demoted))/);

export const PERMISSION_ACTIONS: string[] = [
  "space.permission_granted",
  "space.permission_revoked",
  "space.permissions_reset",
  "space.access_recovered",
  "space.visibility_changed",
  "page.restriction_added",
  "page.restriction_removed",
  "group.member_added",
  "group.member_removed",
  ...ROLE_ACTIONS,
];

/** Restores, and where backups are copied to: a target receives every page and password hash. */
export const RESTORE_ACTIONS: string[] = named(/^backup\.(restor|target_changed)/);

export const ACCOUNT_ACTIONS: string[] = [
  "user.password_changed",
  "user.password_reset",
  ...named(/^user\.(status|suspend|reactivat|unlock|two_factor|sessions_revoked|tokens_revoked|password_reset_link)/),
];

export const SECURITY_KINDS = {
  sign_in_failure: { actions: ["user.login_failed"], label: "Failed sign-ins" },
  lockout: { actions: ["user.login_failed"], label: "Lockouts" },
  token_minted: { actions: ["token.created"], label: "API tokens created" },
  permission_change: { actions: PERMISSION_ACTIONS, label: "Permission changes" },
  account: { actions: ACCOUNT_ACTIONS, label: "Account changes" },
  restore: { actions: RESTORE_ACTIONS, label: "Restores and backup targets" },
  security: { actions: named(/^security\./), label: "Blocks and alerts" },
} as const;

export type SecurityKind = keyof typeof SECURITY_KINDS;
export const KIND_NAMES = Object.keys(SECURITY_KINDS) as SecurityKind[];

/** Every action that is a security event (each once). */
export const SECURITY_ACTIONS: string[] = [...new Set(KIND_NAMES.flatMap((k) => SECURITY_KINDS[k].actions))];

export const SEVERITY = { Info: 0, Warning: 1, Critical: 2 } as const;
export const ALERT_STATUS = { Open: 0, Acknowledged: 1, Resolved: 2 } as const;
