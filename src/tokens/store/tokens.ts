/**
 * The API tokens' store: with admin.ts beside it (the administrators' reads and revocations, which
 * load when first used), the only modules that write `api_tokens` and `api_token_days`.
 */
import { and, count, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Core } from "../../core";
import { perInstance } from "../../platform/memo";
import { roles, users } from "../../users/tables";
import { apiTokenDays, apiTokens } from "../tables";

export type TokenRow = typeof apiTokens.$inferSelect;

/** Adds `count` uses to the token's use count (in the statement, no read first) and sets its last use. */
export function addTokenUses(core: Pick<Core, "db">, tokenId: string, count: number, lastUsedAt: string): void {
  core.db
    .update(apiTokens)
    .set({ useCount: sql`${apiTokens.useCount} + ${count}`, lastUsedAt })
    .where(eq(apiTokens.id, tokenId))
    .run();
}

/**
 * Adds a minute's requests to the token's row of the day (tokens/admin-activity.ts); the last
 * use and address are the later of the stored and the new.
 */
export function addTokenDay(
  { db }: Pick<Core, "db">,
  row: { tokenId: string; day: string; requests: number; lastUsedAt: string; lastIp: string },
): void {
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
