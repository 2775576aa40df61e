/**
 * When a blob may go. A blob is deleted only when nothing refers to it any more: rows are
 * deleted inside a transaction, but files are not transactional, so
 * 1. the transaction deletes the rows and notes the blobs they used (removeAttachmentsOf…);
 * 2. after COMMIT, deleteUnusedBlobs deletes those that no row refers to now;
 * 3. a crash between the two leaves unreferenced blobs, which the start-up sweep removes.
 * A blob a retained backup names (its manifest's files) stays either way: a restore brings its
 * rows back (platform/backup/pins.ts). It goes once no retained backup names it.
 * A rolled-back transaction never reaches step 2, so its blobs stay.
 */
import { eq, inArray } from "drizzle-orm";
import type { Core } from "../core";
import { blobStore } from "../platform/blobstore";
import { blobPinnedByBackups } from "../platform/backup/pins";
import { pages } from "../pages/tables";
import { attachmentUsesBlob } from "./queries";
import { attachments } from "./tables";
import { brandingFiles } from "../branding/tables";
import { spaceIcons } from "../media/tables";
import { users } from "../users/tables";

/**
 * Whether any row refers to the blob. The one place that knows every referrer: attachments,
 * avatars, space icons and the branding's images each have their check here.
 */
export function blobInUse(core: Core, sha256: string): boolean {
  return attachmentUsesBlob(core, sha256) || brandingUsesBlob(core, sha256) || mediaUsesBlob(core, sha256);
}

/** Avatars (users.avatar_sha256) and space icons (media/tables.ts). */
const mediaUsesBlob = (core: Core, sha256: string) =>
  core.db.select({ id: users.id }).from(users).where(eq(users.avatarSha256, sha256)).limit(1).get() !== undefined ||
  core.db.select({ id: spaceIcons.spaceId }).from(spaceIcons).where(eq(spaceIcons.sha256, sha256)).limit(1).get() !== undefined;

/** The branding's logos and favicon (branding/tables.ts; the branding domain sits above this one). */
const brandingUsesBlob = (core: Core, sha256: string) => core.db.select({ slot: brandingFiles.slot }).from(brandingFiles).where(eq(brandingFiles.sha256, sha256)).limit(1).get() !== undefined;

/** Inside the caller's transaction: deletes the attachments of these pages; answers their blobs. */
export function removeAttachmentsOfPages(core: Core, pageIds: string[]): string[] {
  const blobs = new Set<string>();
  for (let i = 0; i < pageIds.length; i += 500) {
    const part = pageIds.slice(i, i + 500);
    for (const r of core.db.delete(attachments).where(inArray(attachments.pageId, part)).returning({ sha256: attachments.sha256 }).all()) blobs.add(r.sha256);
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

/**
 * After COMMIT: deletes the blobs that nothing refers to any more. It waits until the deletion
 * of their rows is committed (core.afterCommit), so an uncommitted deletion never frees a blob.
 * The reference check and the store's delete run in one tick (see BlobStore.delete).
 */
export function deleteUnusedBlobs(core: Core, sha256s: readonly string[]): void {
  if (sha256s.length === 0) return;
  core.afterCommit(() => {
    const store = blobStore(core);
    for (const sha256 of sha256s) {
      if (blobInUse(core, sha256) || blobPinnedByBackups(core.data.backupsDir, sha256)) continue;
      store.delete(sha256).catch((err) => core.log.error("blob delete failed", { sha256, error: err instanceof Error ? err.message : String(err) }));
    }
  });
}

/**
 * At start-up: deletes every stored blob that nothing refers to (left by a crash between a
 * COMMIT and its blob deletion, or between an upload's store and its row). Answers how many.
 */
export async function sweepOrphanBlobs(core: Core): Promise<number> {
  const store = blobStore(core);
  let deleted = 0;
  try {
    for await (const sha256 of store.list()) {
      if (!blobInUse(core, sha256) && !blobPinnedByBackups(core.data.backupsDir, sha256) && (await store.delete(sha256))) deleted++;
    }
  } catch (err) {
    // Never fatal: what is left is swept at the next start.
    core.log.error("blob sweep failed", { error: err instanceof Error ? err.message : String(err) });
  }
  if (deleted) core.log.info("removed unreferenced blobs", { count: deleted });
  return deleted;
}
