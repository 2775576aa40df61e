/** The administrators' reads of accounts: lists and counts that the screens of users and security ask. */
import { and, eq, gte, inArray, ne } from "drizzle-orm";
import type { Core } from "../../core";
import { TIER } from "../../identity/rights";
import { roles, users } from "../tables";
import { USER_STATUS } from "./accounts";

/** Active accounts of the Admin tier or above, other than this one. */
export function countOtherActiveAdministrators(core: Core, userId: string): number {
  return core.db
    .select({ id: users.id })
    .from(users)
    .innerJoin(roles, eq(users.roleId, roles.id))
    .where(and(eq(users.status, USER_STATUS.Active), gte(roles.tier, TIER.Admin), ne(users.id, userId)))
    .all().length;
}

export interface AdminAccountRow {
  id: string;
  email: string;
  displayName: string;
  roleId: string;
  roleName: string;
  tier: number;
  status: number;
  totpEnabled: boolean;
  failedLogins: number;
  lockedUntil: string | null;
  createdAt: string;
  avatarSha256: string | null;
  avatarVariant: number;
  /** The latest use of any of its sessions still stored. */
  sessionSeenAt: string | null;
  /** The latest use of any of its API tokens (as last flushed by the usage tracker). */
  tokenUsedAt: string | null;
  /** The latest end of a lock for one client address. */
  addressLockedUntil: string | null;
}

/** Every account with its role and sign-in facts, owner first, then by name (one statement). */
export function adminAccountRows(core: Core): AdminAccountRow[] {
  const rows = core.sqlite
    .query(
      `SELECT u.id, u.email, u.display_name AS displayName, u.role_id AS roleId, r.name AS roleName, r.tier,
              u.status, u.totp_enabled AS totpEnabled, u.failed_logins AS failedLogins, u.locked_until AS lockedUntil,
              u.created_at AS createdAt, u.avatar_sha256 AS avatarSha256, u.avatar_variant AS avatarVariant,
              (SELECT max(s.last_seen_at) FROM sessions s WHERE s.user_id = u.id) AS sessionSeenAt,
              (SELECT max(t.last_used_at) FROM api_tokens t WHERE t.user_id = u.id) AS tokenUsedAt,
              (SELECT max(f.locked_until) FROM sign_in_failures f WHERE f.user_id = u.id) AS addressLockedUntil
         FROM users u JOIN roles r ON r.id = u.role_id
        ORDER BY r.tier DESC, u.display_name COLLATE NOCASE, u.email`,
    )
    .all() as Array<Omit<AdminAccountRow, "totpEnabled"> & { totpEnabled: number }>;
  return rows.map((r) => ({ ...r, totpEnabled: r.totpEnabled === 1 }));
}

/** Active administrators (tier Admin or above) without two-factor sign-in. */
export function countAdministratorsWithoutTwoFactor(core: Core): number {
  return core.db
    .select({ id: users.id })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(gte(roles.tier, 1), eq(users.status, 0), ne(users.totpEnabled, true)))
    .all().length;
}

/** Display names of accounts, by id (one statement). */
export function accountNamesOf(core: Core, ids: string[]): Map<string, string> {
  return new Map(
    ids.length
      ? core.db
          .select({ id: users.id, name: users.displayName })
          .from(users)
          .where(inArray(users.id, ids))
          .all()
          .map((u) => [u.id, u.name])
      : [],
  );
}
