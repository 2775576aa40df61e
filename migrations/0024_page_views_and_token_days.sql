CREATE TABLE `api_token_days` (
	`token_id` text NOT NULL,
	`day` text NOT NULL,
	`requests` integer NOT NULL,
	`last_used_at` text NOT NULL,
	`last_ip` text,
	PRIMARY KEY(`token_id`, `day`),
	FOREIGN KEY (`token_id`) REFERENCES `api_tokens`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `api_token_days_day_idx` ON `api_token_days` (`day`);--> statement-breakpoint
CREATE TABLE `page_views_daily` (
	`day` text NOT NULL,
	`page_id` text NOT NULL,
	`views` integer NOT NULL,
	PRIMARY KEY(`day`, `page_id`)
);
