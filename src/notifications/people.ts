/**
 * The people a notification may go to, as the access module sees them. Access rules take a
 * Caller; a recipient is not calling, so each is looked at as a signed-in user with their own
 * role and no token (a read-only token limits what a request may change, not what its owner
 * may see or be told about).
 */
import { getTableColumns, type Column } from "drizzle-orm";
import type { RoleRow, UserCaller, UserRow } from "../identity/caller";
import type { Core } from "../core";
import { perInstance } from "../platform/memo";
import { USER_STATUS } from "../users/service";
import { roles, users } from "../users/tables";
import { listParam } from "../platform/db/lists";

export function personOf(user: UserRow, role: RoleRow, permissions = new Set(role.permissions)): UserCaller {
  return { kind: "user", ip: "", user, role, permissions, session: null, token: null };
}

/**
 * Runs in every page write for every watcher, so it is one raw prepared statement (drizzle's
 * row mapping of a join cost five times the query). The column lists come from the tables, so
 * a new column is picked up here too, read through the column's own driver mapping.
 */
function reader<T>(table: Record<string, Column>, alias: string) {
  const columns = Object.entries(table);
  return {
    select: columns.map(([key, c]) => `${alias}."${c.name}" AS "${alias}_${key}"`).join(", "),
    read(row: Record<string, unknown>): T {
      const out: Record<string, unknown> = {};
      for (const [key, c] of columns) {
        const value = row[`${alias}_${key}`];
        out[key] = value === null ? null : c.mapFromDriverValue(value);
      }
      return out as T;
    },
  };
}

const lookups = perInstance((sqlite: Core["sqlite"]) => {
  const u = reader<UserRow>(getTableColumns(users), "u");
  const r = reader<RoleRow>(getTableColumns(roles), "r");
  const from = `SELECT ${u.select}, ${r.select} FROM users u JOIN roles r ON r.id = u.role_id WHERE u.status = ${USER_STATUS.Active}`;
  const byIds = sqlite.query<Record<string, unknown>, [string]>(`${from} AND u.id IN (${listParam("?")})`);
  const everyone = sqlite.query<Record<string, unknown>, []>(from);
  const toPeople = (rows: Array<Record<string, unknown>>): UserCaller[] => {
    // People of one role share its row and its set of rights.
    const byRole = new Map<string, { role: RoleRow; permissions: Set<string> }>();
    return rows.map((row) => {
      let shared = byRole.get(row.r_id as string);
      if (!shared) {
        const role = r.read(row);
        byRole.set(role.id, (shared = { role, permissions: new Set(role.permissions) }));
      }
      return personOf(u.read(row), shared.role, shared.permissions);
    });
  };
  return { byIds: (ids: string[]) => toPeople(byIds.all(JSON.stringify(ids))), everyone: () => toPeople(everyone.all()) };
});

/** The active accounts among these ids (suspended accounts are told nothing), by id. */
export function peopleByIds(core: Core, ids: string[]): Map<string, UserCaller> {
  if (ids.length === 0) return new Map();
  return new Map(lookups(core.sqlite).byIds(ids).map((p) => [p.user.id, p]));
}

/** Every active account (for rare fan-outs such as a webhook switched off). */
export function everyone(core: Core): UserCaller[] {
  return lookups(core.sqlite).everyone();
}
