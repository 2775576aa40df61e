-- A page's plain text now comes before its document (the row's last column). A search hit reads
-- the text for its snippet, and a column stored after a large one is read through that one's
-- overflow pages: behind a document of ~8 KB the text was three chained page reads further on,
-- each a disk read when the page is not in memory. Rebuilt by the procedure of
-- sqlite.org/lang_altertable.html, as migration 0012 did (the migrator turns foreign keys off
-- around it and checks them before committing). doc_id is copied: the search indexes are
-- contentless and keyed by it, so they stay valid and nothing is indexed again.
CREATE TABLE `pages_new` (
	`doc_id` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`space_id` text NOT NULL,
	`parent_id` text,
	`title` text NOT NULL,
	`current_version` integer NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`status` integer NOT NULL,
	`emoji` text,
	`full_width` integer DEFAULT false NOT NULL,
	`created_by_id` text,
	`updated_by_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	`deleted_by_id` text,
	`trash_root_id` text,
	`plain_text` text DEFAULT '' NOT NULL,
	`content_json` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parent_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`updated_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`deleted_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `pages_new` (`doc_id`, `id`, `space_id`, `parent_id`, `title`, `current_version`, `position`, `status`, `emoji`, `full_width`, `created_by_id`, `updated_by_id`, `created_at`, `updated_at`, `deleted_at`, `deleted_by_id`, `trash_root_id`, `plain_text`, `content_json`)
SELECT `doc_id`, `id`, `space_id`, `parent_id`, `title`, `current_version`, `position`, `status`, `emoji`, `full_width`, `created_by_id`, `updated_by_id`, `created_at`, `updated_at`, `deleted_at`, `deleted_by_id`, `trash_root_id`, `plain_text`, `content_json` FROM `pages`;
--> statement-breakpoint
DROP TABLE `pages`;
--> statement-breakpoint
ALTER TABLE `pages_new` RENAME TO `pages`;
--> statement-breakpoint
CREATE UNIQUE INDEX `pages_id_unique` ON `pages` (`id`);
--> statement-breakpoint
CREATE INDEX `pages_space_parent_position_idx` ON `pages` (`space_id`,`parent_id`,`position`);
--> statement-breakpoint
CREATE INDEX `pages_parent_idx` ON `pages` (`parent_id`);
--> statement-breakpoint
CREATE INDEX `pages_trash_root_idx` ON `pages` (`trash_root_id`);
--> statement-breakpoint
CREATE INDEX `pages_status_idx` ON `pages` (`status`,`deleted_at`);
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
