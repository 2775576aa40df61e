CREATE TABLE `page_restrictions` (
	`id` text PRIMARY KEY NOT NULL,
	`page_id` text NOT NULL,
	`operation` integer NOT NULL,
	`principal_type` integer NOT NULL,
	`principal_id` text NOT NULL,
	`created_by_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "page_restrictions_principal_type_ck" CHECK("page_restrictions"."principal_type" in (0, 1)),
	CONSTRAINT "page_restrictions_operation_ck" CHECK("page_restrictions"."operation" in (0, 1))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `page_restrictions_principal_uq` ON `page_restrictions` (`page_id`,`operation`,`principal_type`,`principal_id`);--> statement-breakpoint
CREATE INDEX `page_restrictions_by_principal_idx` ON `page_restrictions` (`principal_type`,`principal_id`);--> statement-breakpoint
CREATE TABLE `space_grants` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`principal_type` integer NOT NULL,
	`principal_id` text NOT NULL,
	`operation` integer NOT NULL,
	`created_by_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "space_grants_principal_type_ck" CHECK("space_grants"."principal_type" in (0, 1)),
	CONSTRAINT "space_grants_operation_ck" CHECK("space_grants"."operation" in (0, 1, 2))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `space_grants_principal_uq` ON `space_grants` (`space_id`,`principal_type`,`principal_id`);--> statement-breakpoint
CREATE INDEX `space_grants_by_principal_idx` ON `space_grants` (`principal_type`,`principal_id`);