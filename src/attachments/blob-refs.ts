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
import type { Core } from "../core";
import { blobStore } from "../platform/blobstore";
import { blobPinnedByBackups } from "../platform/backup/pins";
import { attachmentUsesBlob, brandingUsesBlob, mediaUsesBlob } from "./store";

/**
 * Whether any row refers to the blob. The one place that knows every referrer: attachments,
 * avatars, space icons and the branding's images each have their check here.
 */
export function blobInUse(core: Core, sha256: string): boolean {
  return attachmentUsesBlob(core, sha256) || brandingUsesBlob(core, sha256) || mediaUsesBlob(core, sha256);
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
      store
        .delete(sha256)
        .catch((err) => core.log.error("blob delete failed", { sha256, error: err instanceof Error ? err.message : String(err) }));
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
