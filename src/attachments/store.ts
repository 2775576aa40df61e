/**
 * The attachments store: the only module that holds the driver for attachment rows and their
 * only writer (docs/architecture.md). Also the reads that ask whether any row of another domain
 * refers to a blob (avatars, space icons, branding files): blob-refs.ts decides with them.
 */
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Core } from "../core";
import { brandingFiles } from "../branding/tables";
import { spaceIcons } from "../media/tables";
import { pages } from "../pages/tables";
import { users } from "../users/tables";
import { attachments, type AttachmentRow } from "./tables";

/** Rows per INSERT: well under SQLite's bound-parameter limit. */
const BATCH = 200;
/** Ids per IN list. */
const SLICE = 500;

/** Whether an attachment row refers to the blob. */
export function attachmentUsesBlob(core: Core, sha256: string): boolean {
  return core.db.select({ one: sql`1` }).from(attachments).where(eq(attachments.sha256, sha256)).limit(1).get() !== undefined;
}

/** Whether an avatar (users.avatar_sha256) or a space icon refers to the blob. */
export const mediaUsesBlob = (core: Core, sha256: string) =>
  core.db.select({ id: users.id }).from(users).where(eq(users.avatarSha256, sha256)).limit(1).get() !== undefined ||
  core.db.select({ id: spaceIcons.spaceId }).from(spaceIcons).where(eq(spaceIcons.sha256, sha256)).limit(1).get() !== undefined;

/** Whether the branding's logos or favicon refer to the blob (the branding domain sits above this one). */
export const brandingUsesBlob = (core: Core, sha256: string) =>
  core.db.select({ slot: brandingFiles.slot }).from(brandingFiles).where(eq(brandingFiles.sha256, sha256)).limit(1).get() !== undefined;

export function attachmentById(core: Core, id: string): AttachmentRow | undefined {
  return core.db.select().from(attachments).where(eq(attachments.id, id)).get();
}

/** A page's attachments, oldest first. */
export function attachmentsOfPage(core: Core, pageId: string): AttachmentRow[] {
  return core.db
    .select()
    .from(attachments)
    .where(eq(attachments.pageId, pageId))
    .orderBy(asc(attachments.createdAt), asc(attachments.id))
    .all();
}

/** A new row (inside the caller's transaction), answered as written. */
export function insertAttachment(core: Core, row: AttachmentRow): AttachmentRow {
  return core.db.insert(attachments).values(row).returning().get();
}

/** Rows written in bulk (an import's slice), in batches. */
export function insertAttachments(core: Core, rows: (typeof attachments.$inferInsert)[]): void {
  for (let i = 0; i < rows.length; i += BATCH)
    core.db
      .insert(attachments)
      .values(rows.slice(i, i + BATCH))
      .run();
}

export function deleteAttachmentRow(core: Core, id: string): void {
  core.db.delete(attachments).where(eq(attachments.id, id)).run();
}

/** Inside the caller's transaction: deletes the attachments of these pages; answers their blobs. */
export function removeAttachmentsOfPages(core: Core, pageIds: string[]): string[] {
  const blobs = new Set<string>();
  for (let i = 0; i < pageIds.length; i += SLICE) {
    const part = pageIds.slice(i, i + SLICE);
    for (const r of core.db.delete(attachments).where(inArray(attachments.pageId, part)).returning({ sha256: attachments.sha256 }).all())
      blobs.add(r.sha256);
  }
  return [...blobs];
}

/** Inside the caller's transaction: deletes the attachments of every page of a space; answers their blobs. */
export function removeAttachmentsOfSpace(core: Core, spaceId: string): string[] {
  const rows = core.db
    .delete(attachments)
    .where(inArray(attachments.pageId, core.db.select({ id: pages.id }).from(pages).where(eq(pages.spaceId, spaceId))))
    .returning({ sha256: attachments.sha256 })
    .all();
  return [...new Set(rows.map((r) => r.sha256))];
}

/** How many attachments the pages of a space have, and their bytes (shared files counted each time). */
export function attachmentTotalsOfSpace(core: Core, spaceId: string): { n: number; bytes: number } {
  return core.db
    .select({ n: sql<number>`count(*)`, bytes: sql<number>`coalesce(sum(${attachments.size}), 0)` })
    .from(attachments)
    .innerJoin(pages, eq(attachments.pageId, pages.id))
    .where(eq(pages.spaceId, spaceId))
    .get()!;
}

/**
 * The copies of `rows` on `pageId` (a page copy), one row each sharing its source's blob (no
 * bytes are copied), with the ids `idMap` gave them, in one statement per batch.
 */
export function copyTo(
  core: Core,
  page: { id: string },
  rows: AttachmentRow[],
  idMap: ReadonlyMap<string, string>,
  by: { userId: string; at: string },
): void {
  insertAttachments(
    core,
    rows.map((row) => ({ ...row, id: idMap.get(row.id)!, pageId: page.id, uploadedById: by.userId, createdAt: by.at })),
  );
}
