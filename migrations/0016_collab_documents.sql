CREATE TABLE `collab_documents` (
	`page_id` text PRIMARY KEY NOT NULL,
	`state` blob NOT NULL,
	`version` integer NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade
);
