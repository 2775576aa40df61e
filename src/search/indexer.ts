import type { Core } from "../core";
import { segmentCjk } from "./segment";

/**
 * Keeps the search index in step with the pages table, inside the same transaction:
 * triggers (migration 'search') note every inserted, retitled, re-texted or deleted page in
 * search_dirty; this hook, run just before each COMMIT, re-indexes exactly those rows. So a
 * change and its index entry commit or roll back together, and no service has to remember to
 * index anything.
 */
export function installSearchIndexer(core: Core): void {
  const dirty = core.sqlite.query<{ docId: number; title: string | null; text: string | null }, []>(
    "SELECT d.doc_id AS docId, p.title AS title, p.plain_text AS text FROM search_dirty d LEFT JOIN pages p ON p.doc_id = d.doc_id",
  );
  const dropWords = core.sqlite.query("DELETE FROM search_words WHERE rowid = ?");
  const dropTitle = core.sqlite.query("DELETE FROM search_titles WHERE rowid = ?");
  const addWords = core.sqlite.query("INSERT INTO search_words (rowid, title, body) VALUES (?, ?, ?)");
  const addTitle = core.sqlite.query("INSERT INTO search_titles (rowid, title) VALUES (?, ?)");
  const clear = core.sqlite.query("DELETE FROM search_dirty");

  const drain = () => {
    const rows = dirty.all();
    if (rows.length === 0) return;
    for (const row of rows) {
      dropWords.run(row.docId);
      dropTitle.run(row.docId);
      if (row.title === null) continue; // the page is gone (purged or its space deleted)
      addWords.run(row.docId, segmentCjk(row.title), segmentCjk(row.text ?? ""));
      addTitle.run(row.docId, row.title);
    }
    clear.run();
  };
  core.beforeCommit(drain);
  // Anything written outside a transaction (there should be nothing) is caught up at start.
  core.tx(drain);
}
