CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`key` text,
	`payload` text DEFAULT 'null' NOT NULL,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`max_attempts` integer NOT NULL,
	`run_at` text NOT NULL,
	`progress_done` integer,
	`progress_total` integer,
	`error` text,
	`created_at` text NOT NULL,
	`started_at` text,
	`finished_at` text,
	CONSTRAINT "jobs_state_ck" CHECK("jobs"."state" IN ('queued', 'running', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE INDEX `jobs_due_idx` ON `jobs` (`state`,`run_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_single_flight_uq` ON `jobs` (`key`) WHERE "jobs"."key" IS NOT NULL AND "jobs"."state" IN ('queued', 'running');