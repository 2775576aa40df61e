import type { Core } from "../../core";
import { perInstance } from "../../platform/memo";

/**
 * Part of the FTS5 index (fts5.ts): search_recent, a second word index holding only the newest
 * pages (migration 'search_recent'), the same columns and tokenizer as search_words.
 *
 * Why: FTS5's bm25 weighs each word by its rarity, and counts for that every page holding the
 * word before it ranks a single match (fts5_aux.c, fts5Bm25GetData: one walk of the word's
 * whole posting list per query). A word on 90,000 of 100,000 pages costs about 3 ms that way,
 * every time, whatever the limit. Search ranks only the newest matches of a query
 * (fts5-body.ts); when those are among the newest pages, as they are for common words, bm25
 * ranks them here, where the walk covers at most `window` pages, and rarity is counted among
 * those pages: a sample of the wiki rather than all of it.
 *
 * Which pages it holds: every indexed page whose doc id is above the floor kept in
 * search_recent_floor. The floor only rises (to the largest doc id less the window, as pages are
 * created), so "every page above the floor is here" stays true when the newest page is purged;
 * pages it passes are removed. A page waiting to be indexed (search_dirty) may be missing, so
 * the index is only asked while none is waiting (usable), in search_dirty or search_backfill.
 */

/** The newest pages held, unless CAIRN_SEARCH_RECENT_PAGES says otherwise. */
export const DEFAULT_WINDOW = 10_000;

export interface RecentIndex {
  /** Moves the floor up to the largest doc id less the window, removing the pages it passes; answers it. In the indexer's transaction. */
  advance(): number;
  /** Writes a page (its old entry already dropped; title and text as segment.ts cut them) if it is above `floor`. */
  add(docId: number, floor: number, title: string, text: string): void;
  drop(docId: number): void;
  /** Whether every page above the floor is here (none waiting to be indexed), and whether that is every page. */
  state(): { usable: boolean; holdsAll: boolean };
}

export const recentIndex = perInstance((core: Core): RecentIndex => {
  const s = core.sqlite;
  const window = core.config.searchRecentPages ?? DEFAULT_WINDOW;
  const stored = s.query<{ floor: number }, []>("SELECT floor FROM search_recent_floor WHERE id = 1");
  const newest = s.query<{ id: number }, []>("SELECT coalesce(max(doc_id), 0) AS id FROM pages");
  const setFloor = s.query<never, [number]>(
    "INSERT INTO search_recent_floor (id, floor) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET floor = excluded.floor",
  );
  const passed = s.query<{ id: number }, [number]>("SELECT id FROM search_recent_docsize WHERE id <= ?");
  const add = s.query<never, [number, string, string]>("INSERT INTO search_recent (rowid, title, body) VALUES (?, ?, ?)");
  const drop = s.query<never, [number]>("DELETE FROM search_recent WHERE rowid = ?");
  const pending = s.query<{ one: number }, []>("SELECT 1 AS one FROM search_dirty UNION ALL SELECT 1 FROM search_backfill LIMIT 1");
  // No floor row (the migration writes one; this is only defensive): nothing is known to be
  // here, so the floor is the newest page, and pages created from now on come in.
  const floorNow = () => stored.get()?.floor ?? newest.get()!.id;

  return {
    advance() {
      const before = stored.get()?.floor ?? null;
      const top = newest.get()!.id;
      // Moved in steps of half a window at least: pages taken out one batch at a time left
      // delete markers in the oldest segments, which FTS5 rewrote again and again, and that
      // cost more than writing the pages in (seeding 20,000 pages: +44 % against +12 %).
      const floor = before === null ? top : top - window - before >= window / 2 ? top - window : before;
      if (floor !== before) {
        setFloor.run(floor);
        for (const { id } of passed.all(floor)) drop.run(id);
      }
      return floor;
    },
    add(docId, floor, title, text) {
      if (docId > floor) add.run(docId, title, text);
    },
    drop(docId) {
      drop.run(docId);
    },
    state() {
      const usable = pending.get() === null;
      return { usable, holdsAll: usable && floorNow() < 1 };
    },
  };
});
