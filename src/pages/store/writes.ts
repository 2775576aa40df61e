/**
 * Changes to page rows other than a new version (rows.ts): publishing a draft, presentation,
 * moving, positions, the trash, and removing pages with their versions. Each runs inside the
 * caller's transaction; lists of ids are written in slices well under SQLite's parameter bound.
 */
import { eq, inArray, sql } from "drizzle-orm";
import type { Core } from "../../core";
import type { CheckedContent } from "../input";
import { pages, pageVersions, type PageRow } from "../tables";

/** Ids per statement (IN lists), well under SQLite's bound-parameter limit. */
const SLICE = 500;

export function chunks<T>(items: T[], size = SLICE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A draft becomes published: its row (the version row is writeVersion's, in rows.ts). */
export function markPublished(
  core: Core,
  pageId: string,
  row: {
    title: string;
    content: CheckedContent | null;
    status: number;
    parentId: string | null;
    position: number;
    currentVersion: number;
    updatedById: string;
    updatedAt: string;
  },
): void {
  const { content, ...rest } = row;
  core.db
    .update(pages)
    .set({ ...rest, ...(content ? { contentJson: content.json, plainText: content.text } : {}) })
    .where(eq(pages.id, pageId))
    .run();
}

/** Emoji and width: presentation only, no new version. */
export function updatePresentation(
  core: Core,
  pageId: string,
  set: Partial<Pick<PageRow, "emoji" | "fullWidth">>,
  by: { userId: string; at: string },
): void {
  core.db
    .update(pages)
    .set({ ...set, updatedById: by.userId, updatedAt: by.at })
    .where(eq(pages.id, pageId))
    .run();
}

/** Every page in `ids` changes space (a subtree moved across spaces). */
export function moveToSpace(core: Core, ids: string[], spaceId: string, at: string): void {
  for (const part of chunks(ids)) core.db.update(pages).set({ spaceId, updatedAt: at }).where(inArray(pages.id, part)).run();
}

/** A page under a new parent (null: the top level); `position` too when given. */
export function setParent(
  core: Core,
  pageId: string,
  parentId: string | null,
  by: { userId: string; at: string },
  position?: number,
): void {
  core.db
    .update(pages)
    .set({ parentId, ...(position === undefined ? {} : { position }), updatedById: by.userId, updatedAt: by.at })
    .where(eq(pages.id, pageId))
    .run();
}

export function setPosition(core: Core, pageId: string, position: number): void {
  core.db.update(pages).set({ position }).where(eq(pages.id, pageId)).run();
}

/** The pages in `ids` go to the trash as one batch, rooted at `rootId`. */
export function markTrashed(core: Core, ids: string[], rootId: string, by: { userId: string; at: string }): void {
  for (const part of chunks(ids))
    core.db.update(pages).set({ deletedAt: by.at, deletedById: by.userId, trashRootId: rootId }).where(inArray(pages.id, part)).run();
}

/** The pages in `ids` leave the trash. */
export function clearTrashed(core: Core, ids: string[]): void {
  for (const part of chunks(ids))
    core.db.update(pages).set({ deletedAt: null, deletedById: null, trashRootId: null }).where(inArray(pages.id, part)).run();
}

/**
 * Removes pages for good with their versions. Other page data hangs off pages with ON DELETE
 * CASCADE (links, contributors, comments, labels…) and goes with them; attachments are the
 * caller's to remove first (their files are noted before the rows go).
 */
export function deletePages(core: Core, ids: string[]): void {
  for (const part of chunks(ids)) {
    core.db.delete(pageVersions).where(inArray(pageVersions.pageId, part)).run();
    core.db.delete(pages).where(inArray(pages.id, part)).run();
  }
}

/** A draft and its history (its versions cascade with the row). */
export function deleteDraft(core: Core, pageId: string): void {
  core.db.delete(pages).where(eq(pages.id, pageId)).run();
}

/**
 * Every page of a space and their versions, in two statements (deleting a space). Children
 * before parents is not needed: parent_id is ON DELETE SET NULL within one statement.
 */
export function deletePagesOfSpace(core: Core, spaceId: string): void {
  core.db
    .delete(pageVersions)
    .where(sql`${pageVersions.pageId} in (select ${pages.id} from ${pages} where ${pages.spaceId} = ${spaceId})`)
    .run();
  core.db.delete(pages).where(eq(pages.spaceId, spaceId)).run();
}
