import type { Core } from "../../core";

/**
 * Part of the FTS5 index (fts5.ts): each index merged into one segment after a bulk catch-up
 * (SearchIndex.tidy), so the page edits after it do not finish its half-done merges a few pages
 * each (docs/decisions.md, "Search"). FTS5's 'merge' with a negative size puts every segment on
 * one level and starts merging; positive sizes go on; fewer than two rows changed: nothing left.
 * Each step is bookkeeping: no answer changes.
 */

const INDEXES = ["search_words", "search_recent", "search_titles", "search_title_words"] as const;

/**
 * A step merges about `pages` pages (4 KB) of the first index not yet merged and answers whether
 * all are; the step after that starts again from the first (another bulk catch-up came).
 */
export function indexMerger(core: Core): (pages: number) => boolean {
  const s = core.sqlite;
  const changes = s.query<{ n: number }, []>("SELECT total_changes() AS n");
  const merge = Object.fromEntries(INDEXES.map((t) => [t, s.query<never, [number]>(`INSERT INTO ${t} (${t}, rank) VALUES ('merge', ?)`)]));
  let at = 0;
  let started = false;
  return (pages) => {
    if (at === INDEXES.length) at = 0;
    while (at < INDEXES.length) {
      const index = INDEXES[at];
      const before = changes.get()!.n;
      // Negative the first time (every segment onto one level), positive after, so a segment
      // written meanwhile does not start the merge over. Unsynced, as the index's catch-up is
      // (fts5.ts): a merge lost to a power cut is merged again.
      core.bookkeeping(() => merge[index].run(started ? pages : -pages), { unsynced: true });
      if (changes.get()!.n - before >= 2) {
        started = true;
        return false;
      }
      at++;
      started = false;
    }
    return true;
  };
}
