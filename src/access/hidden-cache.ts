/**
 * The pages a caller may not see because of View restrictions, kept between requests.
 *
 * Working them out walks down from every restricted page the caller fails (hiddenPageIds, about
 * 2 µs per hidden page): a few milliseconds in a space of 10,000 pages, paid by every list and
 * twice per search. Reads far outnumber writes in a wiki, so the answer is kept in a TEMP table
 * (this connection only, gone at close), one slot per principal set (account, tier, whether
 * public spaces are on), and thrown away as soon as anything is written:
 *
 * - the stamp is writeStamp (platform/db/write-stamp.ts): SQLite's total_changes() with PRAGMA data_version.
 *   Any difference empties the table, so a cached answer can never outlive a change to pages,
 *   grants, restrictions, groups or settings, whoever made it;
 * - inside a write transaction nothing is cached or trusted: the live statement is used, so a
 *   transaction sees its own uncommitted changes and a rollback cannot leave a wrong slot behind.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Caller } from "../identity/caller";
import type { Core } from "../core";
import { writeStamp } from "../platform/db/write-stamp";
import { perInstance } from "../platform/memo";
import { getSettings } from "../settings/service";
import { hiddenPageIds } from "./hidden";
import { principalParams } from "./principals";

/** Slots kept at most; past it the table starts again (each slot is one principal set's hidden pages). */
const MAX_SLOTS = 256;

const cache = perInstance((db: Core["sqlite"]) => {
  db.run("CREATE TEMP TABLE IF NOT EXISTS access_hidden (slot INTEGER NOT NULL, page_id TEXT NOT NULL, PRIMARY KEY (slot, page_id)) WITHOUT ROWID");
  return {
    clear: db.query("DELETE FROM temp.access_hidden"),
    stamp: "",
    slots: new Map<string, number>(),
    next: 0,
  };
});

/**
 * SQL condition: the page whose id is `pageId` (a column) is not hidden from the caller by a
 * View restriction (see hiddenPageIds). From the cache, one primary-key look-up per row.
 */
export function notHiddenFilter(core: Core, caller: Caller, pageId: SQL | { getSQL(): SQL }): SQL {
  if (core.sqlite.inTransaction) return sql`${pageId} NOT IN (${hiddenPageIds(core, caller)})`;
  const c = cache(core.sqlite);
  if (writeStamp(core.sqlite) !== c.stamp || c.slots.size >= MAX_SLOTS) {
    if (c.slots.size > 0) c.clear.run();
    c.slots.clear();
    c.next = 0;
  }
  const p = principalParams(caller);
  const key = `${p.uid}|${p.builtins}|${getSettings(core).allowPublicSpaces}`;
  let slot = c.slots.get(key);
  if (slot === undefined) {
    slot = c.next++;
    core.db.run(sql`INSERT OR IGNORE INTO temp.access_hidden (slot, page_id) SELECT ${slot}, id FROM (${hiddenPageIds(core, caller)})`);
    c.slots.set(key, slot);
  }
  // Our own writes to the temp table moved total_changes(): what we wrote is the current state.
  c.stamp = writeStamp(core.sqlite);
  return sql`NOT EXISTS (SELECT 1 FROM temp.access_hidden ah WHERE ah.slot = ${slot} AND ah.page_id = ${pageId})`;
}
