-- Two more word indexes for search (src/search/fts5.ts), both contentless, with the tokenizer of
-- search_words:
--   search_recent: title and body of the newest pages only, those whose doc_id is above
--     search_recent_floor.floor (fts5-recent.ts), where bm25 ranks a query's newest matches
--     without counting a common word's pages across the whole wiki. The floor only rises (the
--     indexer moves it as pages are created).
--   search_title_words: titles alone (fts5-titles.ts), where bm25 finds and ranks pages whose
--     title holds the words without walking every page whose body does.
-- search_backfill notes pages to write into these two alone: here, every page, which
-- search_words and search_titles hold already (indexing them there again would only slow those
-- until they merge). The indexer writes them in the background, newest first.
CREATE VIRTUAL TABLE `search_recent` USING fts5(title, body, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE VIRTUAL TABLE `search_title_words` USING fts5(title, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TABLE `search_recent_floor` (`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1), `floor` integer NOT NULL);
--> statement-breakpoint
CREATE TABLE `search_backfill` (`doc_id` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
INSERT INTO search_recent_floor (id, floor) SELECT 1, coalesce(max(doc_id), 0) - 10000 FROM pages;
--> statement-breakpoint
INSERT INTO search_backfill (doc_id) SELECT doc_id FROM pages;
