CREATE TABLE `space_icons` (
	`space_id` text PRIMARY KEY NOT NULL,
	`sha256` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`updated_at` text NOT NULL,
	`updated_by_id` text,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`updated_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
ALTER TABLE `users` ADD `avatar_sha256` text;--> statement-breakpoint
ALTER TABLE `users` ADD `avatar_variant` integer DEFAULT 0 NOT NULL;