import { canCreateSpace } from "../access/spaces";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { requireUser, type Caller } from "../identity/caller";
import { createSpaceRow, OPEN_TO_EVERYONE } from "../permissions/new-space";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { permissionRequired } from "../platform/errors";
import {
  cleanDescription,
  cleanName,
  findSpaceById,
  newSpaceAccess,
  normaliseKey,
  spaceFor,
  type CreateSpaceInput,
  type Space,
} from "../spaces/service";

/**
 * POST /api/spaces: needs the right spaces.create; the key must be free (409 key_taken). The
 * creator gets an explicit Admin grant and the built-in Everyone group Edit (docs/permissions.md),
 * so a new space is open to the team until an admin removes that grant. The answer says so
 * (`access`), since a creator may well expect a new space to be theirs alone.
 */
export function createSpace(core: Core, caller: Caller, input: CreateSpaceInput): Space & { access: ReturnType<typeof newSpaceAccess> } {
  const user = requireUser(caller);
  if (!canCreateSpace(user)) throw permissionRequired("spaces.create");
  const key = normaliseKey(input.key);
  const name = cleanName(input.name);
  const description = cleanDescription(input.description ?? "");
  return core.tx(() => {
    const now = iso(core.clock.now());
    const id = newId();
    createSpaceRow(core, { id, key, name, description, createdById: user.user.id, createdAt: now, updatedAt: now }, OPEN_TO_EVERYONE);
    recordEvent(core, {
      type: "space.created",
      targetType: "space",
      targetId: id,
      spaceId: id,
      actorId: user.user.id,
      ip: user.ip,
      data: { key, name },
    });
    return { ...spaceFor(core, caller, findSpaceById(core, id)!), access: newSpaceAccess(key) };
  });
}
