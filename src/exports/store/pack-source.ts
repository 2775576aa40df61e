/**
 * What the wiki pack reads from the other domains' tables: a batch of pages at a time (their
 * rows, versions, comments, attachments and labels: five statements per batch, not per page),
 * so memory holds a few pages' history however large the space. Lists come in the pack's order.
 */
import { and, asc, count, eq, exists, inArray, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Core } from "../../core";
import { attachments } from "../../attachments/tables";
import { comments } from "../../comments/tables";
import { labels, pageLabels } from "../../labels/tables";
import { pages, pageVersions } from "../../pages/tables";
import { templates } from "../../templates/tables";
import { users } from "../../users/tables";
import { perInstance } from "../../platform/memo";

const replies = alias(comments, "replies");

function pageRows(core: Core, ids: string[]) {
  return core.db
    .select({
      id: pages.id,
      position: pages.position,
      title: pages.title,
      emoji: pages.emoji,
      fullWidth: pages.fullWidth,
      createdById: pages.createdById,
      updatedById: pages.updatedById,
      createdAt: pages.createdAt,
      updatedAt: pages.updatedAt,
    })
    .from(pages)
    .where(inArray(pages.id, ids))
    .all();
}

function versionRows(core: Core, ids: string[]) {
  return core.db
    .select({
      pageId: pageVersions.pageId,
      number: pageVersions.versionNumber,
      title: pageVersions.title,
      changeComment: pageVersions.changeComment,
      authorId: pageVersions.authorId,
      createdAt: pageVersions.createdAt,
      contentJson: pageVersions.contentJson,
    })
    .from(pageVersions)
    .where(inArray(pageVersions.pageId, ids))
    .orderBy(asc(pageVersions.pageId), asc(pageVersions.versionNumber))
    .all();
}

/**
 * Deleted comments stay out, except a thread's deleted top comment that still has live replies:
 * the app keeps it as a placeholder (its body emptied), and so does the pack, so the replies
 * keep their thread.
 */
function commentRows(core: Core, ids: string[]) {
  const liveReply = core.db
    .select({ id: replies.id })
    .from(replies)
    .where(and(eq(replies.parentId, comments.id), isNull(replies.deletedAt)));
  return core.db
    .select({
      pageId: comments.pageId,
      id: comments.id,
      parentId: comments.parentId,
      body: comments.body,
      anchorJson: comments.anchorJson,
      authorId: comments.authorId,
      createdAt: comments.createdAt,
      updatedAt: comments.updatedAt,
      resolvedAt: comments.resolvedAt,
      resolvedById: comments.resolvedById,
    })
    .from(comments)
    .where(and(inArray(comments.pageId, ids), or(isNull(comments.deletedAt), and(isNull(comments.parentId), exists(liveReply)))))
    .orderBy(asc(comments.createdAt), asc(comments.id))
    .all();
}

function attachmentRows(core: Core, ids: string[]) {
  return core.db
    .select({
      pageId: attachments.pageId,
      id: attachments.id,
      filename: attachments.filename,
      contentType: attachments.contentType,
      size: attachments.size,
      sha256: attachments.sha256,
      uploadedById: attachments.uploadedById,
      createdAt: attachments.createdAt,
    })
    .from(attachments)
    .where(inArray(attachments.pageId, ids))
    .orderBy(asc(attachments.createdAt), asc(attachments.id))
    .all();
}

function labelRows(core: Core, ids: string[]) {
  return core.db
    .select({ pageId: pageLabels.pageId, name: labels.name })
    .from(pageLabels)
    .innerJoin(labels, eq(labels.id, pageLabels.labelId))
    .where(inArray(pageLabels.pageId, ids))
    .orderBy(asc(labels.name))
    .all();
}

/** How many versions each page of `ids` has (to size the batches: a version can be large). */
export function versionCounts(core: Core, ids: string[]): Map<string, number> {
  const rows = core.db
    .select({ pageId: pageVersions.pageId, n: count() })
    .from(pageVersions)
    .where(inArray(pageVersions.pageId, ids))
    .groupBy(pageVersions.pageId)
    .all();
  return new Map(rows.map((r) => [r.pageId, r.n]));
}

function byPage<R extends { pageId: string }>(rows: R[]): Map<string, R[]> {
  const out = new Map<string, R[]>();
  for (const r of rows) {
    const list = out.get(r.pageId);
    if (list) list.push(r);
    else out.set(r.pageId, [r]);
  }
  return out;
}

export type PackPage = NonNullable<ReturnType<ReturnType<typeof pagesForPack>["get"]>>;

/**
 * The pages of `ids` (a batch: SQLite takes up to 32,766 parameters, callers send a few
 * hundred) with everything the pack keeps of them; a page gone meanwhile is absent.
 */
export function pagesForPack(core: Core, ids: string[]) {
  const versions = byPage(versionRows(core, ids));
  const notes = byPage(commentRows(core, ids));
  const files = byPage(attachmentRows(core, ids));
  const names = byPage(labelRows(core, ids));
  const out = new Map<
    string,
    {
      page: ReturnType<typeof pageRows>[number];
      versions: ReturnType<typeof versionRows>;
      comments: ReturnType<typeof commentRows>;
      attachments: ReturnType<typeof attachmentRows>;
      labels: string[];
    }
  >();
  for (const page of pageRows(core, ids)) {
    out.set(page.id, {
      page,
      versions: versions.get(page.id) ?? [],
      comments: notes.get(page.id) ?? [],
      attachments: files.get(page.id) ?? [],
      labels: (names.get(page.id) ?? []).map((l) => l.name),
    });
  }
  return out;
}

const userQuery = perInstance((core: Core) =>
  core.db
    .select({ name: users.displayName, email: users.email })
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .prepare(),
);

/** An account's name and e-mail (nothing else leaves); undefined for a deleted account. */
export function personForPack(core: Core, userId: string) {
  return userQuery(core).get({ id: userId });
}

/** The space's own templates (not the wiki-wide ones), oldest first. */
export function templatesForPack(core: Core, spaceId: string) {
  return core.db
    .select({
      id: templates.id,
      name: templates.name,
      description: templates.description,
      contentJson: templates.contentJson,
      createdById: templates.createdById,
      createdAt: templates.createdAt,
      updatedAt: templates.updatedAt,
    })
    .from(templates)
    .where(eq(templates.spaceId, spaceId))
    .orderBy(asc(templates.createdAt), asc(templates.id))
    .all();
}
