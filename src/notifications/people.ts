/**
 * The people a notification may go to, as the access module sees them. Access rules take a
 * Caller; a recipient is not calling, so each is looked at as a signed-in user with their own
 * role and no token (a read-only token limits what a request may change, not what its owner
 * may see or be told about).
 */
import type { RoleRow, UserCaller, UserRow } from "../identity/caller";
import type { Core } from "../core";
import { activeAccounts } from "./store";

export function personOf(user: UserRow, role: RoleRow, permissions = new Set(role.permissions)): UserCaller {
  return { kind: "user", ip: "", user, role, permissions, session: null, token: null };
}

/** The active accounts among these ids (suspended accounts are told nothing), by id. */
export function peopleByIds(core: Core, ids: string[]): Map<string, UserCaller> {
  if (ids.length === 0) return new Map();
  return new Map(
    activeAccounts(core)
      .byIds(ids, personOf)
      .map((p) => [p.user.id, p]),
  );
}

/** Every active account (for rare fan-outs such as a webhook switched off). */
export function everyone(core: Core): UserCaller[] {
  return activeAccounts(core).everyone(personOf);
}
