CREATE TABLE `collab_unpublished` (
	`page_id` text NOT NULL,
	`user_id` text NOT NULL,
	`since` text NOT NULL,
	`last_at` text NOT NULL,
	PRIMARY KEY(`page_id`, `user_id`),
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `page_version_contributors` (
	`page_id` text NOT NULL,
	`version_number` integer NOT NULL,
	`position` integer NOT NULL,
	`user_id` text NOT NULL,
	PRIMARY KEY(`page_id`, `version_number`, `position`),
	FOREIGN KEY (`page_id`,`version_number`) REFERENCES `page_versions`(`page_id`,`version_number`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
