/**
 * The hand-written SQL of API tokens: the one file a second backend rewrites for this domain
 * (docs/architecture.md, "Seams").
 */
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../platform/db/open";
import { apiTokenDays, apiTokens } from "./tables";

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
export function tokenDaySummary(db: Db, since: string): Array<{ day: string; created: number; revoked: number; requests: number }> {
  return db.all(sql`
    SELECT day, sum(created) AS created, sum(revoked) AS revoked, sum(requests) AS requests FROM (
      SELECT substr(created_at, 1, 10) AS day, 1 AS created, 0 AS revoked, 0 AS requests FROM api_tokens WHERE created_at >= ${since}
      UNION ALL
      SELECT substr(revoked_at, 1, 10), 0, 1, 0 FROM api_tokens WHERE revoked_at >= ${since}
      UNION ALL
      SELECT day, 0, 0, requests FROM api_token_days WHERE day >= ${since}
    ) GROUP BY day ORDER BY day`);
}
