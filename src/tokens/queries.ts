/**
 * The hand-written SQL of API tokens: the one file a second backend rewrites for this domain
 * (docs/architecture.md, "Seams").
 */
import { sql, type SQL } from "drizzle-orm";
import { apiTokens } from "./tables";

/** The new use count: the stored one plus `n` uses, added in the statement (no read first). */
export function useCountPlus(n: number): SQL {
  return sql`${apiTokens.useCount} + ${n}`;
}
