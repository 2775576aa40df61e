/**
 * The comments store: the only module that holds the driver for comments and their only
 * writer (docs/architecture.md).
 */
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { Core } from "../core";
import { users } from "../users/tables";
import { comments, type CommentRow } from "./tables";

/** Deletes the comment `parentId` if it is a deleted placeholder with no reply left. */
export function deleteEmptiedParent(core: Core, parentId: string): void {
  core.db.run(
    sql`delete from ${comments} where id = ${parentId} and deleted_at is not null
      and not exists (select 1 from ${comments} r where r.parent_id = ${parentId})`,
  );
}

/** Rows per INSERT: well under SQLite's bound-parameter limit. */
const BATCH = 200;

/** Comments written in bulk (an import), top comments before replies (a reply's parent must exist). */
export function insertComments(core: Core, rows: (typeof comments.$inferInsert)[]): void {
  // Both are on the same page, so in the same slice of an import.
  for (const group of [rows.filter((c) => !c.parentId), rows.filter((c) => c.parentId)]) {
    for (let i = 0; i < group.length; i += BATCH)
      core.db
        .insert(comments)
        .values(group.slice(i, i + BATCH))
        .run();
  }
}

/** The ids among `ids` that name an account (mentions). */
export function existingUserIds(core: Core, ids: string[]): string[] {
  return core.db
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.id, ids))
    .all()
    .map((u) => u.id);
}

export function commentById(core: Core, id: string): CommentRow | undefined {
  return core.db.select().from(comments).where(eq(comments.id, id)).get();
}

/** The comment `id` if it is on the page `pageId`. */
export function commentOnPage(core: Core, id: string, pageId: string): CommentRow | undefined {
  return core.db
    .select()
    .from(comments)
    .where(and(eq(comments.id, id), eq(comments.pageId, pageId)))
    .get();
}

/** A comment with its author's name. */
export function commentWithAuthor(core: Core, id: string) {
  return core.db
    .select({ c: comments, name: users.displayName })
    .from(comments)
    .leftJoin(users, eq(users.id, comments.authorId))
    .where(eq(comments.id, id))
    .get();
}

/** A page's comments with their authors' names, in creation order. */
export function commentsOfPageWithAuthors(core: Core, pageId: string) {
  return core.db
    .select({ c: comments, name: users.displayName })
    .from(comments)
    .leftJoin(users, eq(users.id, comments.authorId))
    .where(eq(comments.pageId, pageId))
    .orderBy(asc(comments.createdAt), asc(comments.id))
    .all();
}

export function replyCount(core: Core, id: string): number {
  return core.db.select({ n: count() }).from(comments).where(eq(comments.parentId, id)).get()!.n;
}

/** A new comment (inside the caller's transaction), answered as written. */
export function insertComment(core: Core, row: typeof comments.$inferInsert): CommentRow {
  return core.db.insert(comments).values(row).returning().get();
}

export function updateCommentRow(core: Core, id: string, changes: Partial<CommentRow>): void {
  core.db.update(comments).set(changes).where(eq(comments.id, id)).run();
}

export function deleteCommentRow(core: Core, id: string): void {
  core.db.delete(comments).where(eq(comments.id, id)).run();
}
