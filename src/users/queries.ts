/**
 * The hand-written SQL of accounts: the one file a second backend rewrites for this domain
 * (docs/architecture.md, "Seams").
 */
import type { Core } from "../core";

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
