-- Security administration (src/security): alerts raised by the detectors and address blocks.
-- The last statement (roles.offered) belongs to the roles area: its tables.ts change was not yet generated.
CREATE TABLE `security_alerts` (
	`id` text PRIMARY KEY NOT NULL,
	`detector` text NOT NULL,
	`subject` text NOT NULL,
	`severity` integer NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`summary` text NOT NULL,
	`details` text NOT NULL,
	`hits` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`last_seen_at` text NOT NULL,
	`acknowledged_at` text,
	`acknowledged_by_id` text,
	`resolved_at` text,
	`resolved_by_id` text,
	`note` text,
	CONSTRAINT "security_alerts_status_ck" CHECK("security_alerts"."status" IN (0, 1, 2)),
	CONSTRAINT "security_alerts_severity_ck" CHECK("security_alerts"."severity" IN (0, 1, 2))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `security_alerts_one_open_uq` ON `security_alerts` (`detector`,`subject`) WHERE "security_alerts"."status" <> 2;--> statement-breakpoint
CREATE INDEX `security_alerts_subject_idx` ON `security_alerts` (`detector`,`subject`,`resolved_at`);--> statement-breakpoint
CREATE INDEX `security_alerts_status_idx` ON `security_alerts` (`status`,`last_seen_at`);--> statement-breakpoint
CREATE TABLE `security_blocks` (
	`id` text PRIMARY KEY NOT NULL,
	`cidr` text NOT NULL,
	`reason` text NOT NULL,
	`created_by_id` text,
	`created_at` text NOT NULL,
	`expires_at` text
);
--> statement-breakpoint
ALTER TABLE `roles` ADD `offered` text;