CREATE TABLE `spaces` (
	`id` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`is_public` integer DEFAULT false NOT NULL,
	`public_comments` integer DEFAULT false NOT NULL,
	`archived_at` text,
	`icon_kind` integer DEFAULT 0 NOT NULL,
	`icon_value` text,
	`icon_color` text,
	`tree_style` integer DEFAULT 0 NOT NULL,
	`export_markdown` integer DEFAULT true NOT NULL,
	`export_html` integer DEFAULT true NOT NULL,
	`export_pdf` integer DEFAULT true NOT NULL,
	`export_site` integer DEFAULT true NOT NULL,
	`export_pack` integer DEFAULT true NOT NULL,
	`homepage_id` text,
	`created_by_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `spaces_key_unique` ON `spaces` (`key`);--> statement-breakpoint
CREATE INDEX `spaces_name_idx` ON `spaces` (`name`);--> statement-breakpoint
CREATE TABLE `page_versions` (
	`page_id` text NOT NULL,
	`version_number` integer NOT NULL,
	`title` text NOT NULL,
	`content_json` text NOT NULL,
	`change_comment` text,
	`author_id` text,
	`created_at` text NOT NULL,
	PRIMARY KEY(`page_id`, `version_number`),
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `pages` (
	`doc_id` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`space_id` text NOT NULL,
	`parent_id` text,
	`title` text NOT NULL,
	`content_json` text NOT NULL,
	`plain_text` text DEFAULT '' NOT NULL,
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
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parent_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`updated_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`deleted_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pages_id_unique` ON `pages` (`id`);--> statement-breakpoint
CREATE INDEX `pages_space_parent_position_idx` ON `pages` (`space_id`,`parent_id`,`position`);--> statement-breakpoint
CREATE INDEX `pages_parent_idx` ON `pages` (`parent_id`);--> statement-breakpoint
CREATE INDEX `pages_trash_root_idx` ON `pages` (`trash_root_id`);--> statement-breakpoint
CREATE TABLE `event_cursors` (
	`consumer` text PRIMARY KEY NOT NULL,
	`seq` integer NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `events` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`type` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`space_id` text,
	`actor_id` text,
	`data` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `events_id_unique` ON `events` (`id`);--> statement-breakpoint
CREATE INDEX `events_target_idx` ON `events` (`target_type`,`target_id`);