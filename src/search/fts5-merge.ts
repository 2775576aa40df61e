import type { Core } from "../core";

/**
 * Part of the FTS5 index (fts5.ts): merging each index's segments into one after a bulk
 * catch-up (SearchIndex.tidy).
 *
 * Why: FTS5 writes each catch-up as a new segment and merges segments as it goes, a level at a
 * time (automerge), paying for merges out of later writes: every leaf page a write adds buys
 * about 64 pages of merging times the number of levels. A backlog of thousands of pages (a
 * restore, an import, seeding) leaves big segments on several levels, some half merged, and the
 * page edits that follow then finish those merges a few pages at a time: with 100,000 pages,
 * an edit's catch-up wrote ~9 more 4 KB pages of merge work (a third of the WAL of a page
 * update, archived and checkpointed too) and cost ~15 % more CPU, until the merges were done.
 * Merged into one segment once the backlog is indexed, small writes merge only small segments
 * for a long time (the big one waits for three more of its size).
 *
 * How: FTS5's 'merge' command with a negative size puts every segment on one level and starts
 * merging them (as 'optimize' does, but in steps); positive sizes go on with it; a step that
 * changes fewer than two rows found nothing to do. Each step is bookkeeping: no answer changes.
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
      // written meanwhile does not start the merge over.
      core.bookkeeping(() => merge[index].run(started ? pages : -pages));
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
