-- Search (docs/decisions.md, "Search"): a word index and a title trigram index, both contentless (the text lives
-- in pages; snippets are built from pages.plain_text). Triggers note changed pages in
-- search_dirty; src/search/indexer.ts re-indexes them before the same transaction commits.
CREATE VIRTUAL TABLE `search_words` USING fts5(title, body, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE VIRTUAL TABLE `search_titles` USING fts5(title, content='', contentless_delete=1, tokenize='trigram remove_diacritics 1');
--> statement-breakpoint
CREATE TABLE `search_dirty` (`doc_id` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
CREATE TRIGGER `pages_search_insert` AFTER INSERT ON `pages` BEGIN
  INSERT OR IGNORE INTO search_dirty (doc_id) VALUES (new.doc_id);
END;
--> statement-breakpoint
CREATE TRIGGER `pages_search_update` AFTER UPDATE OF title, plain_text ON `pages` BEGIN
  INSERT OR IGNORE INTO search_dirty (doc_id) VALUES (new.doc_id);
END;
--> statement-breakpoint
CREATE TRIGGER `pages_search_delete` AFTER DELETE ON `pages` BEGIN
  INSERT OR IGNORE INTO search_dirty (doc_id) VALUES (old.doc_id);
END;
