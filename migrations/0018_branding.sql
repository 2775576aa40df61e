CREATE TABLE `branding` (
	`id` integer PRIMARY KEY NOT NULL,
	`brand_name` text,
	`display` text NOT NULL,
	`sign_in_arrangement` text NOT NULL,
	`theme_policy` text NOT NULL,
	`accent_policy` text NOT NULL,
	`accent_name` text,
	`accent_light` text NOT NULL,
	`accent_dark` text NOT NULL,
	`updated_at` text NOT NULL,
	`updated_by_id` text,
	FOREIGN KEY (`updated_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `branding_files` (
	`slot` text PRIMARY KEY NOT NULL,
	`sha256` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`width` integer,
	`height` integer,
	`updated_at` text NOT NULL,
	`updated_by_id` text,
	FOREIGN KEY (`updated_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
