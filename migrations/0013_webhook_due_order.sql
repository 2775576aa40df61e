-- Deliveries due, in the order they are sent, straight from an index: the old index on
-- (status, next_attempt_at) served `status IN ('pending','failed')` as two ranges, so every
-- batch of 50 sorted the whole backlog first. Only waiting deliveries have a next_attempt_at.
DROP INDEX `webhook_deliveries_due_idx`;
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`next_attempt_at`,`id`) WHERE `next_attempt_at` IS NOT NULL;
