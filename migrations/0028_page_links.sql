-- Links between pages (src/pages/links.ts): which pages each page's current version links to,
-- by id, for the backlinks of Page details. Written with every version (pages/store.ts
-- writeVersion, and the import's writer); a source page's rows go with it.
CREATE TABLE `page_links` (
	`source_page_id` text NOT NULL,
	`target_page_id` text NOT NULL,
	PRIMARY KEY(`source_page_id`, `target_page_id`),
	FOREIGN KEY (`source_page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `page_links_target_idx` ON `page_links` (`target_page_id`,`source_page_id`);
--> statement-breakpoint
-- The backfill: every page's links as they are now. Before this migration a link between pages
-- could only be a link mark whose href is a page path of this wiki (`/s/KEY/p/<id>-slug`, as the
-- imports wrote them, or `/p/<id>`); content/page-links.ts reads the same forms (a sub-path such
-- as `/edit` after a slug is taken as the page here; the page's next version corrects it).
INSERT OR IGNORE INTO page_links (source_page_id, target_page_id)
SELECT p.id, lower(substr(j.value, instr(j.value, '/p/') + 3, 36))
FROM pages p, json_tree(p.content_json) j
WHERE j.key = 'href' AND j.type = 'text'
	AND (j.value LIKE '/p/%' OR j.value LIKE '/s/%/p/%')
	AND lower(substr(j.value, instr(j.value, '/p/') + 3, 36)) GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'
	AND substr(j.value, instr(j.value, '/p/') + 39, 1) IN ('', '-', '#', '?');
--> statement-breakpoint
INSERT OR IGNORE INTO page_links (source_page_id, target_page_id)
SELECT p.id, lower(json_extract(j.value, '$.attrs.pageId'))
FROM pages p, json_tree(p.content_json) j
WHERE j.type = 'object' AND json_extract(j.value, '$.type') = 'pageLink' AND json_extract(j.value, '$.attrs.pageId') IS NOT NULL;
