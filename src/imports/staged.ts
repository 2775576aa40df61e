/**
 * Spaces an import is still writing (spaces.staged_at set; write-space.ts writes them): which
 * ones this process is writing, and their removal, in slices, after a failure or a cancel, and
 * at start for those a crash left behind. Nobody sees a staged space (access/spaces.ts), so a
 * removal may take its time between requests.
 */
import { and, desc, eq, inArray, isNotNull } from "drizzle-orm";
import type { Core } from "../core";
import { attachments } from "../attachments/tables";
import { deleteUnusedBlobs } from "../attachments/blob-refs";
import { pages, pageVersions } from "../pages/tables";
import { spaces } from "../spaces/tables";

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
  const stillStaged = () => core.db.select({ id: spaces.id }).from(spaces).where(and(eq(spaces.id, spaceId), isNotNull(spaces.stagedAt))).get() !== undefined;
  for (;;) {
    const done = core.tx(() => {
      if (!stillStaged()) return true;
      const ids = core.db.select({ id: pages.id }).from(pages).where(eq(pages.spaceId, spaceId)).orderBy(desc(pages.docId)).limit(REMOVE_PAGES).all().map((p) => p.id);
      if (!ids.length) {
        core.db.delete(spaces).where(eq(spaces.id, spaceId)).run();
        return true;
      }
      const files = core.db.delete(attachments).where(inArray(attachments.pageId, ids)).returning({ sha256: attachments.sha256 }).all();
      core.db.delete(pageVersions).where(inArray(pageVersions.pageId, ids)).run();
      // Comments, links and imported authors hang off pages and versions with ON DELETE CASCADE.
      core.db.delete(pages).where(inArray(pages.id, ids)).run();
      deleteUnusedBlobs(core, [...new Set(files.map((f) => f.sha256))]);
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
    const left = core.db.select({ id: spaces.id, key: spaces.key }).from(spaces).where(isNotNull(spaces.stagedAt)).all();
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
