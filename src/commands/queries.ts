/**
 * The hand-written SQL of the commands (work that spans domains): the one file a second
 * backend rewrites for them (docs/architecture.md, "Seams").
 */
import { eq, sql } from "drizzle-orm";
import type { Core } from "../core";
import { attachments } from "../attachments/tables";
import { pages, pageVersions } from "../pages/tables";

/** What a space holds, for the deletion preview: pages (drafts, trashed), versions, attachments and their bytes. Three statements. */
export function spaceContentCounts(core: Core, spaceId: string) {
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
  const files = core.db
    .select({ n: sql<number>`count(*)`, bytes: sql<number>`coalesce(sum(${attachments.size}), 0)` })
    .from(attachments)
    .innerJoin(pages, eq(attachments.pageId, pages.id))
    .where(eq(pages.spaceId, spaceId))
    .get()!;
  return { counts, versions, files };
}

/** Deletes every version of every page of the space, in one statement. */
export function deleteVersionsOfSpace(core: Core, spaceId: string): void {
  core.db.delete(pageVersions).where(sql`${pageVersions.pageId} in (select ${pages.id} from ${pages} where ${pages.spaceId} = ${spaceId})`).run();
}
