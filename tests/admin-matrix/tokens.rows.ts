/**
 * Everyone's API tokens (src/tokens/admin-routes.ts): tokens.manage for each route. The revoke
 * row revokes a fresh member's token per call (an owner's token is only the owner's to revoke).
 */
import { newId, randomToken, sha256Hex } from "../../src/platform/crypto";
import type { AdminRow, MatrixCtx } from "./types";

/** A new token of a fresh member, written straight to the table (its value is never needed). */
async function freshToken(c: MatrixCtx): Promise<string> {
  const userId = await c.freshUser();
  const id = newId();
  const value = `cct_${randomToken(32)}`;
  c.env.core.sqlite
    .query(
      "INSERT INTO api_tokens (id, user_id, name, token_hash, prefix, read_only, " +
        "created_at, use_count) VALUES (?, ?, 'matrix target', ?, ?, 0, ?, 0)",
    )
    .run(id, userId, sha256Hex(value), value.slice(0, 12), new Date(c.env.clock.now()).toISOString());
  return id;
}

export const rows: AdminRow[] = [
  { route: "GET /api/admin/api-tokens", need: "tokens.manage", ok: 200, path: () => "/api/admin/api-tokens" },
  {
    route: "DELETE /api/admin/api-tokens/:id",
    need: "tokens.manage",
    ok: 204,
    path: async (c) => `/api/admin/api-tokens/${await freshToken(c)}`,
  },
  {
    route: "GET /api/admin/api-tokens/activity",
    need: "tokens.manage",
    ok: 200,
    path: async (c) => `/api/admin/api-tokens/activity?tokenId=${await freshToken(c)}&take=7`,
  },
  { route: "GET /api/admin/api-tokens/summary", need: "tokens.manage", ok: 200, path: () => "/api/admin/api-tokens/summary?days=14" },
];
