/**
 * The hand-written SQL of roles: the one file a second backend rewrites for this domain
 * (docs/architecture.md, "Seams").
 */
import { and, ne, sql } from "drizzle-orm";
import type { Core } from "../core";
import { roles } from "../users/tables";

/** Whether another role already has this name, whatever the case (SQLite's lower() folds ASCII). */
export function roleNameTaken(core: Core, name: string, exceptId: string | null): boolean {
  return (
    core.db
      .select({ id: roles.id })
      .from(roles)
      .where(and(sql`lower(${roles.name}) = lower(${name})`, exceptId ? ne(roles.id, exceptId) : undefined))
      .get() !== undefined
  );
}
