/**
 * The pages a caller may not see because of View restrictions, kept between requests.
 *
 * Working them out walks down from every restricted page the caller fails (hiddenPageIds in
 * queries.ts, about 2 µs per hidden page): a few milliseconds in a space of 10,000 pages, paid by
 * every list and twice per search. Reads far outnumber writes in a wiki, so the ids are kept in memory, one
 * entry per principal set (account, tier, whether public spaces are on), until the change stamp
 * moves (platform/db/kept-answers.ts): any change to pages, grants, restrictions, groups or
 * settings, whoever made it, drops them. Inside a write transaction the live statement is used,
 * so a transaction sees its own uncommitted changes.
 */
import type { SQL } from "drizzle-orm";
import type { Caller } from "../identity/caller";
import type { Core } from "../core";
import { keptUntilWrite } from "../platform/db/kept-answers";
import { getSettings } from "../settings/service";
import { hiddenPageIdList, notAmong, notHiddenLive } from "./store/reads";
import { principalParams } from "./principals";

/** Ids kept at most, over every principal set; past it the cache starts again. */
const MAX_IDS = 200_000;

const keptHidden = keptUntilWrite<string[]>("hidden-pages", MAX_IDS, (ids) => ids.length + 1);

/**
 * SQL condition: the page whose id is `pageId` (a column) is not hidden from the caller by a
 * View restriction (see hiddenPageIds). Nothing to test when nothing is hidden, the usual case.
 */
export function notHiddenFilter(core: Core, caller: Caller, pageId: SQL | { getSQL(): SQL }): SQL {
  if (core.inTx()) return notHiddenLive(core, caller, pageId);
  const p = principalParams(caller);
  const key = `${p.uid}|${p.builtins}|${getSettings(core).allowPublicSpaces}`;
  const ids = keptHidden(core.stamp, key, () => hiddenPageIdList(core, caller));
  return notAmong(pageId, ids);
}
