/**
 * GET /api/spaces/free-key: a key no space uses yet, as close as can be to the one wanted, for a
 * form that proposes one (the import dialog proposes the pack's own key or one from the file's
 * name; a taken one would only be refused after the whole upload). Needs the right to create
 * spaces, like the forms it serves: a key is taken whether or not the caller can see the space
 * holding it, as POST /api/spaces's 409 key_taken already tells the same callers.
 */
import { canCreateSpace } from "../access/spaces";
import type { Core } from "../core";
import { requireUser, type Caller } from "../identity/caller";
import { AppError, permissionRequired } from "../platform/errors";
import { findSpaceByKey, KEY_MAX, normaliseKey } from "./service";

/** Candidates tried after the key itself: DOCS2, DOCS3… */
const MAX_TRIES = 500;

export function freeKey(core: Core, caller: Caller, wanted: string): { key: string; taken: boolean } {
  const user = requireUser(caller);
  if (!canCreateSpace(user)) throw permissionRequired("spaces.create");
  const key = normaliseKey(wanted);
  if (!findSpaceByKey(core, key)) return { key, taken: false };
  // DOCS2 is taken too: DOCS3, not DOCS22.
  const stem = key.replace(/(?<=[A-Z].*)\d+$/, "");
  for (let n = 2; n < MAX_TRIES + 2; n++) {
    const candidate = `${stem.slice(0, KEY_MAX - String(n).length)}${n}`;
    if (!findSpaceByKey(core, candidate)) return { key: candidate, taken: true };
  }
  throw new AppError("key_taken", {
    field: "key",
    detail: `The key ${key} and the next ${MAX_TRIES} like it are used by other spaces: choose another.`,
  });
}
