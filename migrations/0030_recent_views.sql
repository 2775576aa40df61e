-- The pages each person viewed last (the search palette's "Recently viewed"; docs/decisions.md,
-- "Recently viewed is kept per account"): written with the page-view counts
-- (dashboard/page-views.ts, once a minute and before the list is read), never once per read; at
-- most 20 kept per person. Rows go with the account or the page (purged).
CREATE TABLE `recent_views` (
	`user_id` text NOT NULL REFERENCES `users`(`id`) ON DELETE CASCADE,
	`page_id` text NOT NULL REFERENCES `pages`(`id`) ON DELETE CASCADE,
	`viewed_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `page_id`)
);
--> statement-breakpoint
CREATE INDEX `recent_views_user_at_idx` ON `recent_views` (`user_id`,`viewed_at`);
