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

/** Rows per INSERT: well under SQLite's bound-parameter limit. */
const BATCH = 200;

/** Comments written in bulk (an import), top comments before replies (a reply's parent must exist). */
export function insertComments(core: Core, rows: (typeof comments.$inferInsert)[]): void {
  // Both are on the same page, so in the same slice of an import.
  for (const group of [rows.filter((c) => !c.parentId), rows.filter((c) => c.parentId)]) {
    for (let i = 0; i < group.length; i += BATCH) core.db.insert(comments).values(group.slice(i, i + BATCH)).run();
  }
}
