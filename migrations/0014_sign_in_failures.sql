-- Sign-in lockout per (account, client address), and the notice of wrong passwords shown at the
-- next sign-in (src/auth/lockout.ts). The account-wide lock stays on users.locked_until.
CREATE TABLE `sign_in_failures` (
	`user_id` text NOT NULL,
	`address` text NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`lockouts` integer DEFAULT 0 NOT NULL,
	`locked_until` text,
	`checked_while_locked` integer DEFAULT 0 NOT NULL,
	`recent` integer DEFAULT 0 NOT NULL,
	`recent_since` text NOT NULL,
	`last_failure_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `address`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `sign_in_notices` (
	`user_id` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`addresses` text NOT NULL,
	`last_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
