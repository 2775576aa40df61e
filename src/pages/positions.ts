/**
 * Where pages sit: sibling order and subtrees. Positions are 0-based among the published,
 * live pages with the same space and parent; ties (and gaps) are harmless because every
 * listing orders by position, then title.
 */
import { and, asc, eq, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { Core } from "../core";
import { perInstance } from "../platform/memo";
import { PAGE_STATUS, pages } from "./tables";

function siblingsWhere(spaceId: string, parentId: string | null): SQL {
  return and(
    eq(pages.spaceId, spaceId),
    parentId === null ? isNull(pages.parentId) : eq(pages.parentId, parentId),
    eq(pages.status, PAGE_STATUS.Published),
    isNull(pages.deletedAt),
  )!;
}

// Every page created asks this: prepared once per database (`IS` matches a null parent too).
const lastPosition = perInstance((db: Core["sqlite"]) =>
  db.query<{ max: number | null }, { space: string; parent: string | null }>(
    `SELECT max(position) AS max FROM pages WHERE space_id = $space AND parent_id IS $parent AND status = ${PAGE_STATUS.Published} AND deleted_at IS NULL`,
  ),
);

/** The position after the last sibling: where new, restored and published pages go. */
export function nextPosition(core: Core, spaceId: string, parentId: string | null): number {
  const max = lastPosition(core.sqlite).get({ space: spaceId, parent: parentId })?.max;
  return max === null || max === undefined ? 0 : max + 1;
}

/**
 * Puts `pageId` at `index` among its (new) siblings and numbers them all 0, 1, 2… again;
 * an index past the end means last. Only rows whose position changes are written.
 */
export function placeAmongSiblings(core: Core, pageId: string, spaceId: string, parentId: string | null, index: number | undefined): number {
  const others = core.db
    .select({ id: pages.id, position: pages.position })
    .from(pages)
    .where(and(siblingsWhere(spaceId, parentId), ne(pages.id, pageId)))
    .orderBy(asc(pages.position), sql`${pages.title} collate nocase`)
    .all();
  const at = Math.min(Math.max(index ?? others.length, 0), others.length);
  const ordered = [...others.slice(0, at).map((o) => o.id), pageId, ...others.slice(at).map((o) => o.id)];
  const current = new Map(others.map((o) => [o.id, o.position]));
  ordered.forEach((id, position) => {
    if (current.get(id) !== position) core.db.update(pages).set({ position }).where(eq(pages.id, id)).run();
  });
  return at;
}

/** Numbers the remaining siblings 0, 1, 2… again (after a page left their parent). */
export function renumberSiblings(core: Core, spaceId: string, parentId: string | null): void {
  const rows = core.db
    .select({ id: pages.id, position: pages.position })
    .from(pages)
    .where(siblingsWhere(spaceId, parentId))
    .orderBy(asc(pages.position), sql`${pages.title} collate nocase`)
    .all();
  rows.forEach((r, position) => {
    if (r.position !== position) core.db.update(pages).set({ position }).where(eq(pages.id, r.id)).run();
  });
}

export type SubtreeScope =
  /** Every descendant, whatever its state (moving a subtree to another space). */
  | { kind: "all" }
  /** Descendants not in the trash (what DELETE puts in the trash). */
  | { kind: "live" }
  /** Published, live descendants (what a copy with children copies). */
  | { kind: "published" }
  /** Descendants trashed in the same batch (what restore and purge handle). */
  | { kind: "trashBatch"; rootId: string };

/**
 * The ids of a page and its descendants in the given scope, parents before children, in ONE
 * recursive query. The scope applies at every level, so a page outside it hides its subtree.
 */
export function subtreeIds(core: Core, pageId: string, scope: SubtreeScope): string[] {
  const filter =
    scope.kind === "all"
      ? sql`1`
      : scope.kind === "live"
        ? sql`p.deleted_at is null`
        : scope.kind === "published"
          ? sql`p.deleted_at is null and p.status = ${PAGE_STATUS.Published}`
          : sql`p.trash_root_id = ${scope.rootId}`;
  const rows = core.db.all<{ id: string }>(sql`
    with recursive sub(id, depth) as (
      select ${pageId}, 0
      union all
      select p.id, sub.depth + 1 from pages p join sub on p.parent_id = sub.id where ${filter}
    )
    select id from sub order by depth`);
  return rows.map((r) => r.id);
}
