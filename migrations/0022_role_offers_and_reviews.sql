CREATE TABLE `role_reviews` (
	`id` text PRIMARY KEY NOT NULL,
	`reviewed_at` text NOT NULL,
	`reviewed_by_id` text,
	FOREIGN KEY (`reviewed_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `role_reviews_at_idx` ON `role_reviews` (`reviewed_at`);