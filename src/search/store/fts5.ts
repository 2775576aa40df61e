import { sql, type SQL } from "drizzle-orm";
import type { Core } from "../../core";
import { listParam } from "../../platform/db/lists";
import { toExclusionQuery, toFragmentQuery, toWordQuery, type ParsedQuery } from "../query";
import type { SearchIndex, SearchIndexHooks, SearchRow, SearchScope } from "../search-index";
import { segmentCjk } from "../segment";
import { bodyMatches } from "./fts5-body";
import { indexMerger } from "./fts5-merge";
import { recentIndex } from "./fts5-recent";
import { indexSettings, type IndexMode } from "./fts5-settings";
import { HIT_COLUMNS_TEXT, type HitsRead } from "./fts5-scope";
import { titleMatches } from "./fts5-titles";
import { stemEach } from "./stemmer";

/**
 * The search index in SQLite FTS5 (migrations 'search' and 'search_indexes'): search_words, a
 * porter word index of title and body; search_titles, a trigram index of titles (fragments
 * such as "onfig"); search_title_words, a porter word index of titles alone (fts5-titles.ts);
 * search_recent, the word index of the newest pages only (fts5-recent.ts); search_dirty, the
 * pages noted by triggers on `pages` in the transaction of each change; and search_backfill,
 * pages to write into the indexes added after them (migration 'search_indexes'). The
 * indexes are contentless: texts are read from pages. Every SQL statement of search is here or
 * in the fts5-*.ts beside it (title matches, body matches, the recent index, FTS5's records),
 * or in stemmer.ts (FTS5's tokenizer on a private database).
 */

/** Title matches ranked at most: the newest whose title holds every word. */
const TITLE_CANDIDATES = 500;

/**
 * Every page marked for indexing: run by a restore in its swap's transaction, after it emptied
 * the FTS5 tables (their shadow tables cannot be copied: platform/db/replace-data.ts).
 */
export const MARK_EVERY_PAGE = "INSERT OR IGNORE INTO search_dirty (doc_id) SELECT doc_id FROM pages";

/** Pages re-indexed per transaction when catching up (a bulk import marks thousands). */
const BATCH = 500;

export function createFts5Index(core: Core, hooks: SearchIndexHooks): SearchIndex {
  const s = core.sqlite;
  const pending = s.query<{ one: number }, []>("SELECT 1 AS one FROM search_dirty UNION ALL SELECT 1 FROM search_backfill LIMIT 1");
  const dirtyLeft = s.query<{ one: number }, []>("SELECT 1 AS one FROM search_dirty LIMIT 1");
  type Noted = { docId: number; title: string | null; text: string | null };
  const dirty = s.query<Noted, [number]>(
    "SELECT d.doc_id AS docId, p.title AS title, p.plain_text AS text FROM search_dirty d LEFT JOIN pages p ON p.doc_id = d.doc_id LIMIT ?",
  );
  // Newest first; the text only where the recent index takes it.
  const backfill = s.query<Noted, [number, number]>(
    "SELECT d.doc_id AS docId, p.title AS title, CASE WHEN d.doc_id > ?1 THEN p.plain_text END AS text FROM " +
      "search_backfill d LEFT JOIN pages p ON p.doc_id = d.doc_id ORDER BY d.doc_id DESC LIMIT ?2",
  );
  const mark = s.query<never, [string]>(`INSERT OR IGNORE INTO search_dirty (doc_id) ${listParam("?")}`);
  const dropWords = s.query("DELETE FROM search_words WHERE rowid = ?");
  const dropTitle = s.query("DELETE FROM search_titles WHERE rowid = ?");
  const dropTitleWords = s.query("DELETE FROM search_title_words WHERE rowid = ?");
  const addWords = s.query("INSERT INTO search_words (rowid, title, body) VALUES (?, ?, ?)");
  const addTitle = s.query("INSERT INTO search_titles (rowid, title) VALUES (?, ?)");
  const addTitleWords = s.query("INSERT INTO search_title_words (rowid, title) VALUES (?, ?)");
  const doneDirty = s.query("DELETE FROM search_dirty WHERE doc_id = ?");
  const doneBackfill = s.query("DELETE FROM search_backfill WHERE doc_id = ?");
  const recent = recentIndex(core);
  // FTS5's settings for the batch at hand (fts5-settings.ts): in the batch's transaction, only
  // where they differ from what the index holds, so a server that indexes nothing writes nothing.
  const settings = indexSettings(core);
  let vocab: ReturnType<typeof vocabularyStatements> | null = null;
  let merger: ReturnType<typeof indexMerger> | null = null;

  /**
   * (Re-)indexes up to `size` noted pages in one transaction. `every`: pages from search_dirty,
   * into every index; else pages from search_backfill, into the indexes added after them (the
   * recent index and title words). Unsynced (platform/db/transactions.ts): a batch lost to a
   * power cut loses its marks' removal too, so those pages are indexed again.
   */
  const indexBatch = (size: number, every: boolean, mode: IndexMode): void => {
    try {
      core.tx(() => writeBatch(size, every, mode), { unsynced: true });
    } catch (err) {
      settings.forget();
      throw err;
    }
  };
  const writeBatch = (size: number, every: boolean, mode: IndexMode): void => {
    settings.use(mode);
    const floor = recent.advance();
    const rows = every ? dirty.all(size) : backfill.all(floor, size);
    for (const row of rows) {
      if (every) {
        dropWords.run(row.docId);
        dropTitle.run(row.docId);
        doneDirty.run(row.docId);
        hooks.indexed(row.docId);
      } else doneBackfill.run(row.docId);
      dropTitleWords.run(row.docId);
      recent.drop(row.docId);
      if (row.title === null) continue; // the page is gone (purged or its space deleted)
      const title = segmentCjk(row.title);
      const text = segmentCjk(row.text ?? "");
      if (every) {
        addWords.run(row.docId, title, text);
        addTitle.run(row.docId, row.title);
      }
      addTitleWords.run(row.docId, title);
      recent.add(row.docId, floor, title, text);
    }
  };

  return {
    markDirty(docIds) {
      if (docIds.length) mark.run(JSON.stringify(docIds));
    },
    catchUp(maxPages = Number.POSITIVE_INFINITY) {
      // A backlog of more than one batch caught up in one call is a bulk one: merging waits for
      // the tidy after it (fts5-settings.ts). Bounded calls (searches, the drain's turns) never are.
      const bulk = maxPages === Number.POSITIVE_INFINITY;
      let batches = 0;
      try {
        for (let left = maxPages; left > 0; left -= BATCH) {
          if (pending.get() === null) return true;
          // Pages changed first, then those for the indexes added after them; never an empty
          // transaction (a write's catch-up would otherwise commit one more for nothing).
          indexBatch(Math.min(BATCH, left), dirtyLeft.get() !== null, bulk && batches++ > 0 ? "bulk" : "steady");
        }
        return pending.get() === null;
      } finally {
        if (batches > 1) core.tx(() => settings.use("steady"));
      }
    },
    tidy: (pages) => (merger ??= indexMerger(core))(pages),
    words: (query, scope, limit) => wordMatches(core, query, scopeSql(scope), limit),
    titleFragments(query, given, limit) {
      const scope = scopeSql(given);
      const fragment = toFragmentQuery(query);
      if (!fragment) return [];
      // Excluded words apply to the whole page, so they are checked in the word index.
      const exclusion = toExclusionQuery(query);
      const where = exclusion
        ? sql`${scope} AND pages.doc_id NOT IN (SELECT rowid FROM search_words WHERE search_words MATCH ${exclusion})`
        : scope;
      return guarded(core, () =>
        core.db.all<SearchRow>(sql`
          SELECT ${HIT_COLUMNS} FROM search_titles
          JOIN pages ON pages.doc_id = search_titles.rowid JOIN spaces ON spaces.id = pages.space_id
          WHERE search_titles MATCH ${fragment} AND ${where}
          ORDER BY length(pages.title) LIMIT ${limit}`),
      );
    },
    termsOf: stemEach,
    allTerms: () => (vocab ??= vocabularyStatements(core)).all.all(),
    pageTexts: (docIds) => (vocab ??= vocabularyStatements(core)).pages.all(JSON.stringify(docIds)),
    outsideVersion: () => (vocab ??= vocabularyStatements(core)).version.get()!.data_version,
    onDataReplaced: [MARK_EVERY_PAGE],
  };
}

/** Published, live pages of active spaces that the caller may read (in the one space asked for). */
function scopeSql(scope: SearchScope): SQL {
  const conditions = [sql`pages.status = 1`, sql`pages.deleted_at IS NULL`, sql`spaces.archived_at IS NULL`, scope.readable];
  if (scope.spaceId) conditions.push(sql`pages.space_id = ${scope.spaceId}`);
  return sql.join(conditions, sql` AND `);
}

const HIT_COLUMNS = sql.raw(HIT_COLUMNS_TEXT);

/**
 * The vocabulary (vocabulary.ts) reads an fts5vocab table over search_words, created in the
 * connection's temp schema (no migration: it stores nothing, it is a view of the index).
 */
function vocabularyStatements(core: Core) {
  core.sqlite.run("CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocab USING fts5vocab(main, search_words, row)");
  return {
    all: core.sqlite.query<{ term: string; doc: number }, []>("SELECT term, doc FROM temp.search_vocab"),
    version: core.sqlite.query<{ data_version: number }, []>("PRAGMA data_version"),
    pages: core.sqlite.query<{ title: string; text: string }, [string]>(
      `SELECT title, coalesce(plain_text, '') AS text FROM pages WHERE doc_id IN (${listParam("?")})`,
    ),
  };
}

/**
 * The best word matches, best first:
 *   1. pages whose title holds every word (the TITLE_CANDIDATES newest), ranked by bm25 over
 *      titles alone (fts5-titles.ts);
 *   2. then, if fewer than `limit`, the newest matches ranked by bm25, titles weighing more than
 *      the body (fts5-body.ts).
 * Before they were ranked apart (docs/decisions.md, "Title matches ranked apart") both were ranked
 * together in SQL, title matches by bm25 over titles alone, and they came first all the same: a
 * word's weight (its rarity) among titles is higher than among pages, and one occurrence in a title
 * counts as ten. Ranked apart, a query whose words are in 50 titles needs no bm25 over bodies at
 * all, which counts, for each word, every page holding it before it ranks any (a whole posting
 * list: about 3 ms for a word on 90,000 pages).
 */
function wordMatches(core: Core, query: ParsedQuery, scope: SQL, limit: number): SearchRow[] {
  const all = toWordQuery(query);
  const words = toWordQuery({ must: query.must, not: [] });
  if (!all || !words) return [];
  return guarded(core, () => {
    const read: HitsRead = new Map();
    const titled = titleMatches(core, words, toExclusionQuery(query), scope, TITLE_CANDIDATES, limit, read);
    const ids = titled.ids;
    if (ids.length < limit) ids.push(...bodyMatches(core, query, all, scope, limit - ids.length, titled.found, read));
    return hitsInOrder(core, ids, read);
  });
}

/**
 * The pages of these doc ids, with what a hit shows, in the order given (only these read their
 * text): those the scope check read already (fts5-scope.ts), the others read here.
 */
function hitsInOrder(core: Core, ids: number[], read: HitsRead): SearchRow[] {
  const missing = ids.filter((id) => !read.has(id));
  if (missing.length > 0) {
    // Text, not a drizzle query: one statement, never turned into text again.
    const rows = core.sqlite
      .query<SearchRow & { docId: number }, [string]>(
        `SELECT pages.doc_id AS docId, ${HIT_COLUMNS_TEXT} FROM pages JOIN spaces ON ` +
          `spaces.id = pages.space_id WHERE pages.doc_id IN (${listParam("?")})`,
      )
      .all(JSON.stringify(missing));
    for (const { docId, ...row } of rows) read.set(docId, row);
  }
  return ids.flatMap((id) => read.get(id) ?? []);
}

/** Every term is quoted, so FTS5 should accept any query; if it still refuses one, the person gets "no results", never a 500. */
function guarded(core: Core, query: () => SearchRow[]): SearchRow[] {
  try {
    return query();
  } catch (err) {
    core.log.warn("search query refused by FTS5", { error: (err as Error).message });
    return [];
  }
}
