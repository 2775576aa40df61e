/**
 * Puts a restored copy in place of the live data, under the running process (the engine is
 * platform/db/replace-data.ts: one transaction on a second connection; why, it says).
 *
 * Around it: the open group commit is committed first (the swap's BEGIN IMMEDIATE must find the
 * write lock free at once: waiting would hold the event loop), core.tx() refuses until the swap
 * is over (maintenance.holdWrites), and the WAL archive takes no checkpoint meanwhile. Reads on
 * the main connection keep answering from the old data until the COMMIT, then see the new.
 */
import type { Core } from "../core";
import { iso } from "../platform/clock";
import { replaceData, type ReplaceResult } from "../platform/db/replace-data";
import { searchIndex } from "../search/indexer";
import { MARKER_TABLE } from "./restore-state";

export async function swapInCopy(
  core: Core,
  copyPath: string,
  markerId: string,
  onProgress?: (done: number, total: number) => void,
): Promise<ReplaceResult> {
  core.commits.flush();
  const releaseWrites = core.maintenance.holdWrites();
  const archive = core.wal;
  const resumeCheckpoints = archive?.suspendCheckpoints() ?? (() => {});
  try {
    return await replaceData(core.data.dbPath, {
      source: copyPath,
      marker: { table: MARKER_TABLE, id: markerId, at: iso(core.clock.now()) },
      alsoRun: [...searchIndex(core).onDataReplaced],
      onProgress,
    });
  } finally {
    resumeCheckpoints();
    releaseWrites();
    // The commit reached the file through another connection: the archive copies its frames now.
    archive?.observe();
  }
}
