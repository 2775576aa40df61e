/**
 * Spaces an import is still writing (spaces.staged_at set; write-space.ts writes them): which
 * ones this process is writing, and their removal, in slices, after a failure or a cancel, and
 * at start for those a crash left behind. Nobody sees a staged space (access/spaces.ts), so a
 * removal may take its time between requests.
 */
import type { Core } from "../core";
import { deleteUnusedBlobs } from "../attachments/blob-refs";
import { removeAttachmentsOfPages } from "../attachments/store";
import { newestPageIdsOfSpace } from "../pages/store/reads";
import { deletePages } from "../pages/store/writes";
import { deleteSpaceRow, isStaged, stagedSpaces } from "../spaces/store";

/** Pages removed per transaction: a few milliseconds each, so requests pass between them. */
const REMOVE_PAGES = 200;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Staged spaces this process is writing now (never removed as leftovers). */
const writing = new Set<string>();

/** Marks `spaceId` as being written by this process until `done` is called. */
export function writingStaged(spaceId: string): () => void {
  writing.add(spaceId);
  return () => writing.delete(spaceId);
}

/**
 * Removes a staged space and everything written into it, REMOVE_PAGES pages per transaction,
 * children first (the newest rows: parents were written before their children); blobs nothing
 * refers to any more are deleted after each commit. A space that is no longer staged (it was
 * published) is left alone.
 */
export async function removeStaged(core: Core, spaceId: string): Promise<void> {
  for (;;) {
    const done = core.tx(() => {
      if (!isStaged(core, spaceId)) return true;
      const ids = newestPageIdsOfSpace(core, spaceId, REMOVE_PAGES);
      if (!ids.length) {
        deleteSpaceRow(core, spaceId);
        return true;
      }
      const files = removeAttachmentsOfPages(core, ids);
      // Comments, links and imported authors hang off pages and versions with ON DELETE CASCADE.
      deletePages(core, ids);
      deleteUnusedBlobs(core, files);
      return false;
    });
    if (done) return;
    await yieldToLoop();
  }
}

/**
 * At start: every staged space no import of this process is writing (a crash, a kill, a power
 * cut midway) is removed. Never fatal: what is left is removed at the next start.
 */
export async function removeLeftoverStages(core: Core): Promise<number> {
  let removed = 0;
  try {
    const left = stagedSpaces(core);
    for (const s of left) {
      if (writing.has(s.id)) continue;
      await removeStaged(core, s.id);
      removed++;
      core.log.info("removed an unfinished import", { space: s.key });
    }
  } catch (err) {
    core.log.error("removing unfinished imports failed", { error: err instanceof Error ? err.message : String(err) });
  }
  return removed;
}
