-- Page and version rows carry their large columns (content_json, plain_text) last. SQLite keeps
-- a row's tail in overflow pages, and reading any column stored after a large one walks that
-- chain: with the body in the middle, the tree, search's filter and every status check read
-- the whole document. Rebuilt by the procedure of sqlite.org/lang_altertable.html (the
-- migrator turns foreign keys off around it and checks them before committing).
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
	`content_json` text NOT NULL,
	`plain_text` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parent_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`updated_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`deleted_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `pages_new` (`doc_id`, `id`, `space_id`, `parent_id`, `title`, `current_version`, `position`, `status`, `emoji`, `full_width`, `created_by_id`, `updated_by_id`, `created_at`, `updated_at`, `deleted_at`, `deleted_by_id`, `trash_root_id`, `content_json`, `plain_text`)
SELECT `doc_id`, `id`, `space_id`, `parent_id`, `title`, `current_version`, `position`, `status`, `emoji`, `full_width`, `created_by_id`, `updated_by_id`, `created_at`, `updated_at`, `deleted_at`, `deleted_by_id`, `trash_root_id`, `content_json`, `plain_text` FROM `pages`;
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
--> statement-breakpoint
CREATE TABLE `page_versions_new` (
	`page_id` text NOT NULL,
	`version_number` integer NOT NULL,
	`title` text NOT NULL,
	`change_comment` text,
	`author_id` text,
	`created_at` text NOT NULL,
	`content_json` text NOT NULL,
	PRIMARY KEY(`page_id`, `version_number`),
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `page_versions_new` (`page_id`, `version_number`, `title`, `change_comment`, `author_id`, `created_at`, `content_json`)
SELECT `page_id`, `version_number`, `title`, `change_comment`, `author_id`, `created_at`, `content_json` FROM `page_versions`;
--> statement-breakpoint
DROP TABLE `page_versions`;
--> statement-breakpoint
ALTER TABLE `page_versions_new` RENAME TO `page_versions`;
