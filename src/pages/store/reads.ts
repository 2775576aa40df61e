/**
 * Reads of page rows other than the single-page look-ups (rows.ts): siblings, the tree, the
 * trash, recent pages, rows by id. `visible` is the caller's filter from access/pages.ts
 * (visiblePagesFilter), applied in the same statement.
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { Core } from "../../core";
import { perInstance } from "../../platform/memo";
import { users } from "../../users/tables";
import { byTitle, trashBatchSize } from "./sql";
import { chunks } from "./writes";
import { PAGE_STATUS, pages, pageVersions, type PageRow } from "../tables";

function siblingsWhere(spaceId: string, parentId: string | null): SQL {
  return and(
    eq(pages.spaceId, spaceId),
    parentId === null ? isNull(pages.parentId) : eq(pages.parentId, parentId),
    eq(pages.status, PAGE_STATUS.Published),
    isNull(pages.deletedAt),
  )!;
}

/** The published, live children of (space, parent) in their order, but `except`. */
export function siblingPositions(
  core: Core,
  spaceId: string,
  parentId: string | null,
  except?: string,
): { id: string; position: number }[] {
  return core.db
    .select({ id: pages.id, position: pages.position })
    .from(pages)
    .where(except === undefined ? siblingsWhere(spaceId, parentId) : and(siblingsWhere(spaceId, parentId), ne(pages.id, except)))
    .orderBy(asc(pages.position), byTitle())
    .all();
}

// Prepared once per database: the tree of a big space is read often and must stay cheap.
const treeQuery = perInstance((core: Core) =>
  core.db
    .select({ id: pages.id, parentId: pages.parentId, title: pages.title, emoji: pages.emoji, position: pages.position })
    .from(pages)
    .where(and(eq(pages.spaceId, sql.placeholder("spaceId")), eq(pages.status, PAGE_STATUS.Published), isNull(pages.deletedAt)))
    .orderBy(asc(pages.position), byTitle(), asc(pages.id))
    .prepare(),
);

/** The published, live pages of a space, ordered by position, then title, then id (one prepared query). */
export function treeRows(core: Core, spaceId: string) {
  return treeQuery(core).all({ spaceId });
}

/** The roots of trashed batches (in one space or all), newest first, with who trashed them and the batch's size. */
export function trashRoots(core: Core, spaceId: string | undefined, visible: SQL | undefined) {
  return core.db
    .select({ page: pages, deletedByName: users.displayName, pageCount: trashBatchSize() })
    .from(pages)
    .leftJoin(users, eq(pages.deletedById, users.id))
    .where(and(isNotNull(pages.trashRootId), eq(pages.trashRootId, pages.id), spaceId ? eq(pages.spaceId, spaceId) : undefined, visible))
    .orderBy(desc(pages.deletedAt), desc(pages.docId))
    .all();
}

/** A space's published, live pages, most recently updated first, with who changed each last. */
export function recentPages(core: Core, spaceId: string, visible: SQL | undefined, limit: number) {
  return core.db
    .select({
      id: pages.id,
      title: pages.title,
      emoji: pages.emoji,
      parentPageId: pages.parentId,
      updatedAt: pages.updatedAt,
      updatedById: pages.updatedById,
      updatedByName: users.displayName,
    })
    .from(pages)
    .leftJoin(users, eq(pages.updatedById, users.id))
    .where(and(eq(pages.spaceId, spaceId), eq(pages.status, PAGE_STATUS.Published), isNull(pages.deletedAt), visible))
    .orderBy(desc(pages.updatedAt), desc(pages.docId))
    .limit(limit)
    .all();
}

/** Whole rows by id, in slices. */
export function pagesByIds(core: Core, ids: string[]): Map<string, PageRow> {
  const rows = new Map<string, PageRow>();
  for (const part of chunks(ids)) for (const r of core.db.select().from(pages).where(inArray(pages.id, part)).all()) rows.set(r.id, r);
  return rows;
}

/** Up to `limit` ids of a space's pages, newest rows first (children before the parents written before them). */
export function newestPageIdsOfSpace(core: Core, spaceId: string, limit: number): string[] {
  return core.db
    .select({ id: pages.id })
    .from(pages)
    .where(eq(pages.spaceId, spaceId))
    .orderBy(desc(pages.docId))
    .limit(limit)
    .all()
    .map((p) => p.id);
}

/** What a space holds in pages (all, drafts, trashed) and versions, in two statements (the deletion preview). */
export function pageCountsOfSpace(core: Core, spaceId: string) {
  const counts = core.db
    .select({
      pages: sql<number>`count(*)`,
      drafts: sql<number>`coalesce(sum(${pages.status} = 0), 0)`,
      trashed: sql<number>`coalesce(sum(${pages.deletedAt} is not null), 0)`,
    })
    .from(pages)
    .where(eq(pages.spaceId, spaceId))
    .get()!;
  const versions = core.db
    .select({ n: sql<number>`count(*)` })
    .from(pageVersions)
    .innerJoin(pages, eq(pageVersions.pageId, pages.id))
    .where(eq(pages.spaceId, spaceId))
    .get()!.n;
  return { counts, versions };
}

/** Pages per space, trashed and drafts included (the administrators' list of spaces). */
export function pageCountPerSpace(core: Core): Map<string, number> {
  return new Map(
    core.db
      .select({ spaceId: pages.spaceId, n: sql<number>`count(*)` })
      .from(pages)
      .groupBy(pages.spaceId)
      .all()
      .map((r) => [r.spaceId, r.n]),
  );
}
