/**
 * Administering people (src/users/admin-routes.ts): users.manage for every account action, the
 * owner alone for transfer-ownership, users.invite for the invites' e-mail status. Each row that
 * changes someone acts on a fresh member, so no caller's call changes another's target.
 */
import type { AdminRow, MatrixCtx } from "./types";

const user = (action: string) => async (c: MatrixCtx) => `/api/admin/users/${await c.freshUser()}/${action}`;

/** A fresh member with two-factor marked on (Cairn has no two-factor sign-in itself yet). */
async function withTwoFactor(c: MatrixCtx): Promise<string> {
  const id = await c.freshUser();
  c.env.core.sqlite.query("UPDATE users SET totp_enabled = 1 WHERE id = ?").run(id);
  return `/api/admin/users/${id}/disable-two-factor`;
}

export const rows: AdminRow[] = [
  { route: "GET /api/admin/users", need: "users.manage", ok: 200, path: () => "/api/admin/users" },
  // The User role (tier 0): a Member-tier holder of users.manage may give it (not a higher tier).
  {
    route: "PUT /api/admin/users/:userId/role",
    need: "users.manage",
    reauth: true,
    ok: 200,
    path: user("role"),
    body: () => ({ role: 0 }),
  },
  { route: "PUT /api/admin/users/:userId/status", need: "users.manage", ok: 200, path: user("status"), body: () => ({ status: 1 }) },
  { route: "POST /api/admin/users/:userId/reset-password", need: "users.manage", reauth: true, ok: 201, path: user("reset-password") },
  { route: "POST /api/admin/users/:userId/revoke-sessions", need: "users.manage", ok: 200, path: user("revoke-sessions") },
  { route: "POST /api/admin/users/:userId/revoke-tokens", need: "users.manage", ok: 200, path: user("revoke-tokens") },
  { route: "POST /api/admin/users/:userId/unlock", need: "users.manage", ok: 204, path: user("unlock") },
  { route: "POST /api/admin/users/:userId/disable-two-factor", need: "users.manage", reauth: true, ok: 204, path: withTwoFactor },
  {
    route: "POST /api/admin/users/:userId/transfer-ownership",
    need: "owner",
    reauth: true,
    ok: 200,
    path: user("transfer-ownership"),
    breaksWorld: true,
  },
  { route: "GET /api/admin/invites/email", need: "users.invite", ok: 200, path: () => "/api/admin/invites/email" },
];
