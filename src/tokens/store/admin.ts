/** The administrators' side of the tokens' store: every token with its owner, its days of use, revocation by someone else. */
import { and, desc, eq, gte, isNull, sql } from "drizzle-orm";
import type { Core } from "../../core";
import { roles, users } from "../../users/tables";
import { apiTokenDays, apiTokens } from "../tables";

/** Per UTC day from `since` (a YYYY-MM-DD day): tokens created, tokens revoked, requests made with tokens. */
export function tokenDaySummary(core: Core, since: string): Array<{ day: string; created: number; revoked: number; requests: number }> {
  return core.db.all(sql`
    SELECT day, sum(created) AS created, sum(revoked) AS revoked, sum(requests) AS requests FROM (
      SELECT substr(created_at, 1, 10) AS day, 1 AS created, 0 AS revoked, 0 AS requests FROM api_tokens WHERE created_at >= ${since}
      UNION ALL
      SELECT substr(revoked_at, 1, 10), 0, 1, 0 FROM api_tokens WHERE revoked_at >= ${since}
      UNION ALL
      SELECT day, 0, 0, requests FROM api_token_days WHERE day >= ${since}
    ) GROUP BY day ORDER BY day`);
}

/** Revokes a live token whoever holds it (an administrator's revocation). */
export function revokeToken(core: Core, id: string, at: string): void {
  core.db
    .update(apiTokens)
    .set({ revokedAt: at })
    .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
    .run();
}

/** Revokes every live token of the account; answers their ids. */
export function revokeTokensOf(core: Core, userId: string, at: string): string[] {
  return core.db
    .update(apiTokens)
    .set({ revokedAt: at })
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id })
    .all()
    .map((t) => t.id);
}

/** What the administrators' token list shows of a token and its owner. */
export const adminTokenSelection = {
  id: apiTokens.id,
  name: apiTokens.name,
  prefix: apiTokens.prefix,
  readOnly: apiTokens.readOnly,
  createdAt: apiTokens.createdAt,
  expiresAt: apiTokens.expiresAt,
  lastUsedAt: apiTokens.lastUsedAt,
  useCount: apiTokens.useCount,
  revokedAt: apiTokens.revokedAt,
  ownerId: users.id,
  ownerName: users.displayName,
  ownerEmail: users.email,
};

/** Every token with its owner, newest first. */
export function allTokensWithOwner(core: Core) {
  return core.db
    .select(adminTokenSelection)
    .from(apiTokens)
    .innerJoin(users, eq(apiTokens.userId, users.id))
    .orderBy(desc(apiTokens.createdAt), apiTokens.id)
    .all();
}

/** One token with its owner and the owner's role tier. */
export function tokenWithOwnerTier(core: Core, tokenId: string) {
  return core.db
    .select({ ...adminTokenSelection, ownerTier: roles.tier })
    .from(apiTokens)
    .innerJoin(users, eq(apiTokens.userId, users.id))
    .innerJoin(roles, eq(users.roleId, roles.id))
    .where(eq(apiTokens.id, tokenId))
    .get();
}

/** A token's requests per day from `since` (a YYYY-MM-DD day). */
export function tokenDaysSince(core: Core, tokenId: string, since: string) {
  return core.db
    .select({ day: apiTokenDays.day, requests: apiTokenDays.requests, lastUsedAt: apiTokenDays.lastUsedAt, lastIp: apiTokenDays.lastIp })
    .from(apiTokenDays)
    .where(and(eq(apiTokenDays.tokenId, tokenId), gte(apiTokenDays.day, since)))
    .all();
}

/** A token's last recorded use and the address it came from. */
export function latestTokenDay(core: Core, tokenId: string) {
  return core.db
    .select({ lastUsedAt: apiTokenDays.lastUsedAt, lastIp: apiTokenDays.lastIp })
    .from(apiTokenDays)
    .where(eq(apiTokenDays.tokenId, tokenId))
    .orderBy(desc(apiTokenDays.day))
    .limit(1)
    .get();
}
