/**
 * Built-in roles across releases. A release may add a right to a built-in role's defaults
 * (dashboard.view joined the Administrator's defaults with the admin dashboard); an instance made
 * earlier must get it, yet a right the administrator deliberately removed must stay removed. So
 * each built-in role remembers every right its defaults have ever offered it (roles.offered): at
 * start-up a default right not yet offered is granted once and recorded as offered; an offered
 * right missing from the role was removed on purpose and is left alone.
 */
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { BUILT_IN_ROLES, OWNER_RESERVED_RIGHTS, ROLE_ID } from "../identity/rights";
import { roleById, updateRole } from "../users/store/roles";

/**
 * Rights added to the defaults after the releases that did not record offers yet. A row with
 * no record (offered null) was offered its defaults minus these; so these are granted once.
 */
const ADDED_SINCE_OFFERS_WERE_RECORDED: readonly string[] = ["dashboard.view"];

const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

/** Run at every start, after the built-in roles exist. Idempotent; writes only when something is new. */
export function reconcileBuiltInRoles(core: Core): void {
  core.tx(() => {
    for (const def of BUILT_IN_ROLES) {
      const row = roleById(core, def.id);
      if (!row) continue;
      const defaults: readonly string[] = def.permissions;
      const offered = row.offered ?? defaults.filter((r) => !ADDED_SINCE_OFFERS_WERE_RECORDED.includes(r));
      let added = defaults.filter((r) => !offered.includes(r) && !row.permissions.includes(r));
      // The owner's reserved rights are never missing, whatever was written to the database.
      if (def.id === ROLE_ID.owner)
        added = union(
          added,
          OWNER_RESERVED_RIGHTS.filter((r) => !row.permissions.includes(r)),
        );
      const nextOffered = union(offered, defaults);
      if (!added.length && row.offered !== null && nextOffered.length === row.offered.length) continue;
      updateRole(core, def.id, { permissions: union(row.permissions, added), offered: nextOffered });
      if (added.length) {
        recordEvent(core, {
          type: "role.permissions_changed",
          targetType: "role",
          targetId: def.id,
          spaceId: null,
          actorId: null,
          data: { name: row.name, added, removed: [], reason: "a default right of this release" },
        });
      }
    }
  });
}
