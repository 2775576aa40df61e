CREATE INDEX `audit_log_actor_idx` ON `audit_log` (`actor_id`,`sequence`);--> statement-breakpoint
CREATE INDEX `audit_log_action_idx` ON `audit_log` (`action`,`sequence`);