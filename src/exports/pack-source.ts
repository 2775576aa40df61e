/**
 * What the wiki pack reads from the other domains' tables: one page at a time (its row, its
 * versions, comments, attachments and labels), so memory holds one page's history however large
 * the space; statements prepared once per database. Every list comes in the pack's order.
 */
import { and, asc, eq, isNull, or, isNotNull, sql, exists } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Core } from "../core";
import { attachments } from "../attachments/tables";
import { comments } from "../comments/tables";
import { labels, pageLabels } from "../labels/tables";
import { pages, pageVersions } from "../pages/tables";
import { templates } from "../templates/tables";
import { users } from "../users/tables";
import { perInstance } from "../platform/memo";

const id = sql.placeholder("id");
const replies = alias(comments, "replies");

const statements = perInstance((core: Core) => ({
  page: core.db
    .select({
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
    .where(eq(pages.id, id))
    .prepare(),
  versions: core.db
    .select({
      number: pageVersions.versionNumber,
      title: pageVersions.title,
      changeComment: pageVersions.changeComment,
      authorId: pageVersions.authorId,
      createdAt: pageVersions.createdAt,
      contentJson: pageVersions.contentJson,
    })
    .from(pageVersions)
    .where(eq(pageVersions.pageId, id))
    .orderBy(asc(pageVersions.versionNumber))
    .prepare(),
  // Deleted comments stay out, except a thread's deleted top comment that still has live
  // replies: the app keeps it as a placeholder (its body emptied), and so does the pack, so the
  // replies keep their thread.
  comments: core.db
    .select({
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
    .where(
      and(
        eq(comments.pageId, id),
        or(
          isNull(comments.deletedAt),
          and(isNull(comments.parentId), exists(core.db.select({ id: replies.id }).from(replies).where(and(eq(replies.parentId, comments.id), isNull(replies.deletedAt))))),
        ),
      ),
    )
    .orderBy(asc(comments.createdAt), asc(comments.id))
    .prepare(),
  attachments: core.db
    .select({
      id: attachments.id,
      filename: attachments.filename,
      contentType: attachments.contentType,
      size: attachments.size,
      sha256: attachments.sha256,
      uploadedById: attachments.uploadedById,
      createdAt: attachments.createdAt,
    })
    .from(attachments)
    .where(eq(attachments.pageId, id))
    .orderBy(asc(attachments.createdAt), asc(attachments.id))
    .prepare(),
  labels: core.db
    .select({ name: labels.name })
    .from(pageLabels)
    .innerJoin(labels, eq(labels.id, pageLabels.labelId))
    .where(eq(pageLabels.pageId, id))
    .orderBy(asc(labels.name))
    .prepare(),
  user: core.db.select({ name: users.displayName, email: users.email }).from(users).where(eq(users.id, id)).prepare(),
  templates: core.db
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
    .where(and(isNotNull(templates.spaceId), eq(templates.spaceId, id)))
    .orderBy(asc(templates.createdAt), asc(templates.id))
    .prepare(),
}));

export type PackPageRow = NonNullable<ReturnType<ReturnType<typeof statements>["page"]["get"]>>;

/** One page's row and everything the pack keeps of it; undefined once the page is gone. */
export function pageForPack(core: Core, pageId: string) {
  const s = statements(core);
  const page = s.page.get({ id: pageId });
  if (!page) return undefined;
  return {
    page,
    versions: s.versions.all({ id: pageId }),
    comments: s.comments.all({ id: pageId }),
    attachments: s.attachments.all({ id: pageId }),
    labels: s.labels.all({ id: pageId }).map((l) => l.name),
  };
}

/** An account's name and e-mail (nothing else leaves); undefined for a deleted account. */
export function personForPack(core: Core, userId: string) {
  return statements(core).user.get({ id: userId });
}

/** The space's own templates (not the wiki-wide ones), oldest first. */
export function templatesForPack(core: Core, spaceId: string) {
  return statements(core).templates.all({ id: spaceId });
}
