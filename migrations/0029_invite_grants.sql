CREATE TABLE `invite_grants` (
	`invite_id` text NOT NULL,
	`space_id` text NOT NULL,
	`operation` integer NOT NULL,
	PRIMARY KEY(`invite_id`, `space_id`),
	FOREIGN KEY (`invite_id`) REFERENCES `invites`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "invite_grants_operation_ck" CHECK("invite_grants"."operation" in (0, 1, 2))
);
--> statement-breakpoint
CREATE INDEX `invite_grants_space_idx` ON `invite_grants` (`space_id`);
