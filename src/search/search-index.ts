import type { SQL } from "drizzle-orm";
import type { ParsedQuery } from "./query";

/**
 * The search index, as the rest of search sees it (docs/architecture.md, "Search"): pages are
 * marked dirty inside the transaction that changes them, caught up in batches shortly after
 * (indexer.ts), and queried within a caller's scope. FTS5 (store/fts5.ts, the search domain's store) is
 * the one implementation; a PostgreSQL one (tsvector, pg_trgm) would replace that folder and nothing else.
 *
 * Only published, live pages of active spaces are found, and of those the ones in the caller's
 * scope: the index applies it inside its query, before any limit, so a caller's unreadable
 * pages never take the place of readable ones.
 */
export interface SearchIndex {
  /**
   * Notes pages (by doc id) whose title or text changed, in the caller's transaction. Every
   * write to `pages` is noted already by the database itself (triggers, migration 'search'),
   * in the same transaction; this is for anything else that wants pages indexed again.
   */
  markDirty(docIds: readonly number[]): void;
  /**
   * Indexes the pages noted dirty (in batches), at most `maxPages` of them; answers whether none
   * is left. Cheap when none is.
   */
  catchUp(maxPages?: number): boolean;
  /**
   * After a bulk catch-up: compacts the index's own structure by about `pages` pages of work
   * (FTS5: merges its segments into one); answers whether it is compact. Changes no answer.
   */
  tidy(pages: number): boolean;
  /** The best matches of the words within the scope, best first (titles weigh more than bodies). */
  words(query: ParsedQuery, scope: SearchScope, limit: number): SearchRow[];
  /** Pages whose title holds every typed fragment (3 characters or more), shortest title first. */
  titleFragments(query: ParsedQuery, scope: SearchScope, limit: number): SearchRow[];
  /** The index's terms of these words, as it would index them (null: not one term). */
  termsOf(words: readonly string[]): (string | null)[];
  /** Every term of the index with the number of pages holding it (for near spellings). */
  allTerms(): Array<{ term: string; doc: number }>;
  /** The titles and texts of these pages (for adding the terms of pages indexed since allTerms). */
  pageTexts(docIds: readonly number[]): Array<{ title: string; text: string }>;
  /** Changes when another process may have written the index (what it wrote is not known here). */
  outsideVersion(): number;
  /**
   * What a restore runs inside its swap's transaction (platform/db/replace-data.ts), once the
   * restored rows are in and the index's own tables are empty (they are not copied): statements
   * that note every page for indexing again, so the index is rebuilt from the restored pages.
   */
  readonly onDataReplaced: readonly string[];
}

/** Whose pages a search looks through. */
export interface SearchScope {
  /** The pages the caller may read: an SQL condition over `pages` (access/pages.ts, visiblePagesFilter). */
  readable: SQL;
  /** One space only (its id), or every space. */
  spaceId: string | null;
}

/** A page found, with what a hit shows. */
export interface SearchRow {
  pageId: string;
  spaceId: string;
  spaceKey: string;
  spaceName: string;
  title: string;
  text: string;
}

/** What the index tells whoever keeps something derived from it (vocabulary.ts). */
export interface SearchIndexHooks {
  /** A page was (re)written in the index, or removed from it. */
  indexed(docId: number): void;
}
