CREATE INDEX `page_versions_created_idx` ON `page_versions` (`created_at`,`author_id`);--> statement-breakpoint
CREATE INDEX `pages_status_idx` ON `pages` (`status`,`deleted_at`);--> statement-breakpoint
CREATE INDEX `page_views_daily_cover_idx` ON `page_views_daily` (`day`,`page_id`,`views`);