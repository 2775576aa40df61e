/**
 * What the static site reads from the other domains' tables (query builder, prepared once per
 * database): one page's document at a time, and the space's attachments and labels up front
 * (small rows; the caller keeps those of the pages it exports).
 */
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Core } from "../../core";
import { attachments } from "../../attachments/tables";
import { labels, pageLabels } from "../../labels/tables";
import { PAGE_STATUS, pages } from "../../pages/tables";
import { perInstance } from "../../platform/memo";

const pageQuery = perInstance((core: Core) =>
  core.db
    .select({ contentJson: pages.contentJson, plainText: pages.plainText, updatedAt: pages.updatedAt, fullWidth: pages.fullWidth })
    .from(pages)
    .where(and(eq(pages.id, sql.placeholder("id")), eq(pages.status, PAGE_STATUS.Published), isNull(pages.deletedAt)))
    .prepare(),
);

/** A published, live page's document and text; undefined once it is gone. */
export function pageForSite(core: Core, id: string) {
  return pageQuery(core).get({ id });
}

/** Every attachment of the space's published, live pages, oldest first (so a shared file's name is its first upload's). */
export function attachmentsOfSpace(core: Core, spaceId: string) {
  return core.db
    .select({
      id: attachments.id,
      pageId: attachments.pageId,
      filename: attachments.filename,
      contentType: attachments.contentType,
      sha256: attachments.sha256,
    })
    .from(attachments)
    .innerJoin(pages, eq(pages.id, attachments.pageId))
    .where(and(eq(pages.spaceId, spaceId), eq(pages.status, PAGE_STATUS.Published), isNull(pages.deletedAt)))
    .orderBy(asc(attachments.createdAt), asc(attachments.id))
    .all();
}

/** The labels of the space's pages: page id → names, sorted. */
export function labelsOfSpace(core: Core, spaceId: string): Map<string, string[]> {
  const rows = core.db
    .select({ pageId: pageLabels.pageId, name: labels.name })
    .from(pageLabels)
    .innerJoin(labels, eq(labels.id, pageLabels.labelId))
    .innerJoin(pages, eq(pages.id, pageLabels.pageId))
    .where(eq(pages.spaceId, spaceId))
    .orderBy(asc(labels.name))
    .all();
  const out = new Map<string, string[]>();
  for (const r of rows) {
    const list = out.get(r.pageId);
    if (list) list.push(r.name);
    else out.set(r.pageId, [r.name]);
  }
  return out;
}
