import type { Core } from "../core";
import { perInstance } from "../platform/memo";
import { segmentCjk } from "./segment";
import { noteIndexed } from "./vocabulary";

/** Pages re-indexed per transaction when catching up (a bulk import marks thousands). */
const BATCH = 500;
/** How soon after a write the index catches up on its own (searches catch up at once). */
const CATCH_UP_DELAY_MS = 50;

/**
 * Keeps the search index in step with the pages table. Triggers (migration 'search') note every
 * inserted, retitled, re-texted or deleted page in search_dirty, in the transaction of the
 * change, so a change and its note commit or roll back together. The index itself is written
 * shortly after, many pages per transaction: FTS5 writes a new index segment (and merges) at
 * every commit that touched it, about half a millisecond whatever the size, which per page
 * write cost more than everything else in it. Nothing can be missed or seen late:
 *   1. every search catches up first (catchUpSearchIndex), so it sees every committed change;
 *   2. a timer catches up CATCH_UP_DELAY_MS after any write transaction, and at shutdown;
 *   3. at start, whatever a crash left noted is indexed.
 */
const indexer = perInstance((core: Core) => {
  const pending = core.sqlite.query<{ one: number }, []>("SELECT 1 AS one FROM search_dirty LIMIT 1");
  const dirty = core.sqlite.query<{ docId: number; title: string | null; text: string | null }, [number]>(
    "SELECT d.doc_id AS docId, p.title AS title, p.plain_text AS text FROM search_dirty d LEFT JOIN pages p ON p.doc_id = d.doc_id LIMIT ?",
  );
  const dropWords = core.sqlite.query("DELETE FROM search_words WHERE rowid = ?");
  const dropTitle = core.sqlite.query("DELETE FROM search_titles WHERE rowid = ?");
  const addWords = core.sqlite.query("INSERT INTO search_words (rowid, title, body) VALUES (?, ?, ?)");
  const addTitle = core.sqlite.query("INSERT INTO search_titles (rowid, title) VALUES (?, ?)");
  const done = core.sqlite.query("DELETE FROM search_dirty WHERE doc_id = ?");

  /** Re-indexes up to BATCH noted pages; answers whether any were left after them. */
  const indexBatch = (): boolean =>
    core.tx(() => {
      const rows = dirty.all(BATCH);
      for (const row of rows) {
        dropWords.run(row.docId);
        dropTitle.run(row.docId);
        done.run(row.docId);
        noteIndexed(core, row.docId);
        if (row.title === null) continue; // the page is gone (purged or its space deleted)
        addWords.run(row.docId, segmentCjk(row.title), segmentCjk(row.text ?? ""));
        addTitle.run(row.docId, row.title);
      }
      return rows.length === BATCH;
    });

  return {
    timer: null as ReturnType<typeof setTimeout> | null,
    catchUp(): void {
      if (pending.get() === null) return;
      while (indexBatch()) {}
    },
  };
});

/** Brings the index up to date with every committed change (and the open transaction's own). */
export function catchUpSearchIndex(core: Core): void {
  indexer(core).catchUp();
}

export function installSearchIndexer(core: Core): void {
  const state = indexer(core);
  // Runs inside every write transaction, just before COMMIT: only arms the timer.
  let closed = false;
  core.beforeCommit(() => {
    if (closed) return; // the catch-up at shutdown commits too: nothing may run after it
    state.timer ??= setTimeout(() => {
      state.timer = null;
      state.catchUp();
    }, CATCH_UP_DELAY_MS);
  });
  core.onClose(() => {
    closed = true;
    if (state.timer) clearTimeout(state.timer);
    state.catchUp();
  });
  state.catchUp();
}
