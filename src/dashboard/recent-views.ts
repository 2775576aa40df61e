/**
 * GET /api/pages/viewed: the pages this person viewed last, newest first (the search palette
 * with nothing typed). Kept per account on the server, so every browser of the account shows
 * the same list; only pages the caller may still read, published and out of the trash.
 */
import { visiblePagesFilter } from "../access/pages";
import type { Core } from "../core";
import { requireUser, type Caller } from "../identity/caller";
import { invalid } from "../platform/errors";
import { pageViews } from "./page-views";
import { viewedPages } from "./store";

export const VIEWED_DEFAULT = 10;
export const VIEWED_MAX = 20;

export function listViewedPages(core: Core, caller: Caller, limit = VIEWED_DEFAULT) {
  const user = requireUser(caller);
  if (!Number.isInteger(limit) || limit < 1 || limit > VIEWED_MAX) throw invalid("limit", `must be a whole number from 1 to ${VIEWED_MAX}`);
  // Reads wait in memory until the minute's flush: this person's are written first (bookkeeping).
  const counter = pageViews(core);
  if (counter.hasViewedPending(user.user.id)) counter.flush();
  return viewedPages(core, user.user.id, visiblePagesFilter(core, caller), limit);
}
