/**
 * Which pages a View restriction hides from a caller, as SQL. Apart from access/pages.ts so
 * that the cache of these ids (hidden-cache.ts), which pages.ts reads, does not import it back.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Caller } from "../identity/caller";
import type { Core } from "../core";
import { namesCaller, principalParams } from "./principals";
import { adminSpaceIds, readableSpaceIds } from "./spaces";
import { OPERATION } from "../permissions/tables";

/**
 * SQL: the ids of the pages the caller may not see because of a View restriction at or above
 * them, in the spaces `spaceScope` names (or every readable space). One recursive statement
 * down from the restricted pages the caller fails; space admins fail none in their spaces.
 */
export function hiddenPageIds(core: Core, caller: Caller, spaceScope?: string): SQL {
  return hiddenUnder(caller, spaceScope === undefined ? sql`rp.space_id IN (${readableSpaceIds(core, caller)})` : sql`rp.space_id = ${spaceScope}`);
}

function hiddenUnder(caller: Caller, spaces: SQL): SQL {
  return sql`WITH RECURSIVE hidden(id) AS (
      SELECT r.page_id FROM page_restrictions r CROSS JOIN pages rp ON rp.id = r.page_id
      WHERE r.operation = ${OPERATION.View} AND ${spaces} AND rp.space_id NOT IN (${adminSpaceIds(caller)})
      GROUP BY r.page_id HAVING max(${namesCaller("r", principalParams(caller))}) = 0
      UNION SELECT c.id FROM pages c JOIN hidden h ON c.parent_id = h.id
    ) SELECT id FROM hidden`;
}

