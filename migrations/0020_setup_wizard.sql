CREATE TABLE `setup_completion` (
	`id` integer PRIMARY KEY NOT NULL,
	`completed_by_id` text,
	`completed_at` text NOT NULL,
	FOREIGN KEY (`completed_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `setup_steps` (
	`key` text PRIMARY KEY NOT NULL,
	`state` integer NOT NULL,
	`choice` text,
	`updated_by_id` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`updated_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
-- An instance that already has spaces was set up before the wizard existed: it counts as completed.
INSERT INTO `setup_completion` (`id`, `completed_by_id`, `completed_at`) SELECT 1, NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE EXISTS (SELECT 1 FROM `spaces`);
