/**
 * The API tokens' store: the only module that writes `api_tokens` and `api_token_days`, and the
 * one file a second backend rewrites for this domain (docs/architecture.md, "Seams").
 */
import { and, count, desc, eq, gt, gte, isNull, sql, type SQL } from "drizzle-orm";
import type { Core } from "../core";
import type { Db } from "../platform/db/open";
import { perInstance } from "../platform/memo";
import { roles, users } from "../users/tables";
import { apiTokenDays, apiTokens } from "./tables";

export type TokenRow = typeof apiTokens.$inferSelect;

/** The new use count: the stored one plus `n` uses, added in the statement (no read first). */
export function useCountPlus(n: number): SQL {
  return sql`${apiTokens.useCount} + ${n}`;
}

/**
 * Adds a minute's requests to the token's row of the day (tokens/admin-activity.ts); the last
 * use and address are the later of the stored and the new.
 */
export function addTokenDay(db: Db, row: { tokenId: string; day: string; requests: number; lastUsedAt: string; lastIp: string }): void {
  db.insert(apiTokenDays)
    .values(row)
    .onConflictDoUpdate({
      target: [apiTokenDays.tokenId, apiTokenDays.day],
      set: {
        requests: sql`${apiTokenDays.requests} + ${row.requests}`,
        lastIp: sql`CASE WHEN ${apiTokenDays.lastUsedAt} > ${row.lastUsedAt} THEN ${apiTokenDays.lastIp} ELSE ${row.lastIp} END`,
        lastUsedAt: sql`max(${apiTokenDays.lastUsedAt}, ${row.lastUsedAt})`,
      },
    })
    .run();
}

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

/** The account's tokens made after `since`: how many, and the oldest one's time. */
export function tokensMadeSince(core: Core, userId: string, since: string): number {
  return core.db
    .select({ n: count() })
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), gt(apiTokens.createdAt, since)))
    .get()!.n;
}

export function oldestTokenMadeSince(core: Core, userId: string, since: string): string {
  return core.db
    .select({ createdAt: apiTokens.createdAt })
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), gt(apiTokens.createdAt, since)))
    .orderBy(apiTokens.createdAt)
    .get()!.createdAt;
}

export function insertToken(core: Core, row: TokenRow): void {
  core.db.insert(apiTokens).values(row).run();
}

/** The account's tokens not revoked, newest first. */
export function liveTokensOf(core: Core, userId: string): TokenRow[] {
  return core.db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .orderBy(desc(apiTokens.createdAt))
    .all();
}

/** Revokes one of the account's live tokens; answers its name and prefix, or undefined when there was none. */
export function revokeOwnToken(core: Core, userId: string, id: string, at: string) {
  return core.db
    .update(apiTokens)
    .set({ revokedAt: at })
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning({ name: apiTokens.name, prefix: apiTokens.prefix })
    .get();
}

/** Revokes a live token whoever holds it (an administrator's revocation). */
export function revokeToken(core: Core, id: string, at: string): void {
  core.db.update(apiTokens).set({ revokedAt: at }).where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt))).run();
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

/** Adds counted uses to a token (bookkeeping: the caller runs it outside the change stamp). */
export function addTokenUse(core: Core, id: string, uses: number, lastUsedAt: string): void {
  core.db.update(apiTokens).set({ useCount: useCountPlus(uses), lastUsedAt }).where(eq(apiTokens.id, id)).run();
}

// Prepared once per instance: this runs on every token request.
const tokenLookup = perInstance((core: Core) =>
  core.db
    .select({ token: apiTokens, user: users, role: roles })
    .from(apiTokens)
    .innerJoin(users, eq(apiTokens.userId, users.id))
    .innerJoin(roles, eq(users.roleId, roles.id))
    .where(eq(apiTokens.tokenHash, sql.placeholder("hash")))
    .prepare(),
);

/** A token by the SHA-256 of its value, with its owner's account and role. */
export function tokenWithOwner(core: Core, hash: string) {
  return tokenLookup(core).get({ hash });
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
  return core.db.select(adminTokenSelection).from(apiTokens).innerJoin(users, eq(apiTokens.userId, users.id)).orderBy(desc(apiTokens.createdAt), apiTokens.id).all();
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
  return core.db.select({ lastUsedAt: apiTokenDays.lastUsedAt, lastIp: apiTokenDays.lastIp }).from(apiTokenDays).where(eq(apiTokenDays.tokenId, tokenId)).orderBy(desc(apiTokenDays.day)).limit(1).get();
}
