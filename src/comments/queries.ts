/**
 * The hand-written SQL of comments: the one file a second backend rewrites for this domain
 * (docs/architecture.md, "Seams").
 */
import { sql } from "drizzle-orm";
import type { Core } from "../core";
import { comments } from "./tables";

/** Deletes the comment `parentId` if it is a deleted placeholder with no reply left. */
export function deleteEmptiedParent(core: Core, parentId: string): void {
  core.db.run(sql`delete from ${comments} where id = ${parentId} and deleted_at is not null and not exists (select 1 from ${comments} r where r.parent_id = ${parentId})`);
}
