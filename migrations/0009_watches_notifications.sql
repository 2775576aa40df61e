CREATE TABLE `page_watches` (
	`page_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` text NOT NULL,
	`unwatched_at` text,
	PRIMARY KEY(`page_id`, `user_id`),
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `page_watches_user_idx` ON `page_watches` (`user_id`);--> statement-breakpoint
CREATE TABLE `space_watches` (
	`space_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`space_id`, `user_id`),
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `space_watches_user_idx` ON `space_watches` (`user_id`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`space_id` text,
	`page_id` text,
	`actor_id` text,
	`details` text NOT NULL,
	`created_at` text NOT NULL,
	`read_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notifications_user_created_idx` ON `notifications` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `notifications_page_idx` ON `notifications` (`page_id`);--> statement-breakpoint
CREATE INDEX `notifications_space_idx` ON `notifications` (`space_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_unread_update_idx` ON `notifications` (`user_id`,`page_id`) WHERE action = 'page.updated' AND read_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_token_expiring_idx` ON `notifications` (`target_id`) WHERE action = 'token.expiring';