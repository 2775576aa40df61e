/**
 * The hand-written SQL of pages: the one file a second backend rewrites for this domain
 * (docs/architecture.md, "Seams"). Query-builder calls stay beside the rules that use them.
 */
import { eq, sql, type SQL } from "drizzle-orm";
import type { Core } from "../../core";
import { listParam } from "../../platform/db/lists";
import { perInstance } from "../../platform/memo";
import { PAGE_STATUS, pages } from "../tables";

/** ORDER BY term: titles as readers sort them, case aside (after position, before id). */
export function byTitle(): SQL {
  return sql`${pages.title} collate nocase`;
}

// Every page created asks this: prepared once per database (`IS` matches a null parent too).
// Walked down the (space, parent, position) index and stopped at the first published, live
// sibling: max(position) read every sibling's row to check its state (seeding: ~10 a page).
const lastPosition = perInstance((db: Core["sqlite"]) =>
  db.query<{ max: number | null }, { space: string; parent: string | null }>(
    `SELECT position AS max FROM pages WHERE space_id = $space AND parent_id IS $parent AND status = ` +
      `${PAGE_STATUS.Published} AND deleted_at IS NULL ORDER BY position DESC LIMIT 1`,
  ),
);

/** The highest position among the published, live children of (space, parent); null or undefined when none. */
export function lastSiblingPosition(core: Core, spaceId: string, parentId: string | null): number | null | undefined {
  return lastPosition(core.sqlite).get({ space: spaceId, parent: parentId })?.max;
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

/** Column for a trash list: how many pages went to the trash with this one (its batch). */
export function trashBatchSize(): SQL<number> {
  return sql<number>`(select count(*) from pages b where b.trash_root_id = ${pages.id})`;
}

// update().set() takes placeholders only wrapped in sql``. Every edit's path: prepared once.
export const updateContent = perInstance((core: Core) =>
  core.db
    .update(pages)
    .set({
      title: sql`${sql.placeholder("title")}`,
      contentJson: sql`${sql.placeholder("contentJson")}`,
      plainText: sql`${sql.placeholder("plainText")}`,
      currentVersion: sql`${sql.placeholder("currentVersion")}`,
      updatedById: sql`${sql.placeholder("updatedById")}`,
      updatedAt: sql`${sql.placeholder("updatedAt")}`,
    })
    .where(eq(pages.id, sql.placeholder("id")))
    .prepare(),
);

// Every version write with links runs these: prepared once per database.
const clearLinks = perInstance((db: Core["sqlite"]) =>
  db.query<never, { source: string }>("DELETE FROM page_links WHERE source_page_id = $source"),
);
const insertLinks = perInstance((db: Core["sqlite"]) =>
  db.query<never, { source: string; targets: string }>(
    `INSERT OR IGNORE INTO page_links (source_page_id, target_page_id) SELECT $source, value FROM (${listParam("$targets")})`,
  ),
);

/** The page's outgoing links become exactly `targets` (inside the caller's transaction). */
export function replacePageLinks(core: Core, sourceId: string, targets: readonly string[], hadAny: boolean): void {
  if (hadAny) clearLinks(core.sqlite).run({ source: sourceId });
  if (targets.length) insertLinks(core.sqlite).run({ source: sourceId, targets: JSON.stringify(targets) });
}
