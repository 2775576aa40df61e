/**
 * GET /api/pages/recent: a space's recently updated pages, newest first, for the home screens
 * of the web UI (and any script that wants "what changed lately"). Published, live pages the
 * caller may read, with who changed each last.
 */
import { visiblePagesFilter } from "../access/pages";
import { requireReadableSpace } from "../access/spaces";
import type { Caller } from "../identity/caller";
import type { Core } from "../core";
import { invalid } from "../platform/errors";
import { findSpaceByIdOrKey } from "../spaces/service";
import { recentPages } from "./store/reads";

export const RECENT_DEFAULT = 10;
export const RECENT_MAX = 50;

export function listRecentPages(core: Core, caller: Caller, spaceRef: string, limit = RECENT_DEFAULT) {
  // Checked here, not by the query schema: its bound errors would not name the parameter.
  if (!Number.isInteger(limit) || limit < 1 || limit > RECENT_MAX) throw invalid("limit", `must be a whole number from 1 to ${RECENT_MAX}`);
  const space = requireReadableSpace(core, caller, findSpaceByIdOrKey(core, spaceRef));
  return recentPages(core, space.id, visiblePagesFilter(core, caller), limit).map((r) => ({
    ...r,
    updatedByName: r.updatedByName ?? null,
  }));
}
