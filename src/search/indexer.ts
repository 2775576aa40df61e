import type { Core } from "../core";
import { perInstance } from "../platform/memo";
import { createFts5Index } from "./fts5";
import type { SearchIndex } from "./search-index";
import { noteIndexed } from "./vocabulary";

/** How soon after a write the index catches up on its own (searches catch up at once). */
const CATCH_UP_DELAY_MS = 50;

/** The instance's search index: FTS5, the one implementation (search-index.ts). */
export const searchIndex = perInstance(
  (core: Core): SearchIndex => createFts5Index(core, { indexed: (docId) => noteIndexed(core, docId) }),
);

/**
 * Keeps the search index in step with the pages table. Every inserted, retitled, re-texted or
 * deleted page is marked dirty in the transaction of the change (SearchIndex.markDirty; in
 * SQLite, triggers on `pages`), so a change and its mark commit or roll back together. The
 * index itself is written shortly after, many pages per transaction: FTS5 writes a new index
 * segment (and merges) at every commit that touched it, about half a millisecond whatever the
 * size, which per page write cost more than everything else in it. Nothing can be missed or
 * seen late:
 *   1. every search catches up first (catchUpSearchIndex), so it sees every committed change;
 *   2. a timer catches up CATCH_UP_DELAY_MS after any write transaction, and at shutdown;
 *   3. at start, whatever a crash left marked is indexed.
 */
const timers = perInstance((_core: Core) => ({ timer: null as ReturnType<typeof setTimeout> | null }));

/** Brings the index up to date with every committed change (and the open transaction's own). */
export function catchUpSearchIndex(core: Core): void {
  // A restore is swapping the data in (no write may start): the search reads the index as it
  // stands; the swap marks every page, and the catch-up after it indexes them.
  if (core.maintenance.writesHeld()) return;
  searchIndex(core).catchUp();
}

export function installSearchIndexer(core: Core): void {
  const state = timers(core);
  const index = searchIndex(core);
  // Runs inside every write transaction, just before COMMIT: only arms the timer.
  let closed = false;
  core.beforeCommit(() => {
    if (closed) return; // the catch-up at shutdown commits too: nothing may run after it
    state.timer ??= setTimeout(() => {
      state.timer = null;
      // During a restore's swap: the write that ends it (its audit event) arms this again.
      if (core.maintenance.writesHeld()) return;
      index.catchUp();
    }, CATCH_UP_DELAY_MS);
  });
  core.onClose(() => {
    closed = true;
    if (state.timer) clearTimeout(state.timer);
    index.catchUp();
  });
  index.catchUp();
}
