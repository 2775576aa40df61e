/**
 * Every event Cairn records (the outbox, the audit log, webhook deliveries) and what an event can
 * be about. The server records them (src/events/outbox.ts); the web UI lists them (the audit
 * log's "What" picker, a webhook's events). Imports nothing: src/web imports it too.
 */
export const EVENT_TYPES = [
  "page.created",
  "page.updated",
  "page.moved",
  "page.trashed",
  "page.restored",
  "page.purged",
  "label.added",
  "label.removed",
  "comment.created",
  "comment.updated",
  "comment.resolved",
  "space.created",
  "space.updated",
  "space.archived",
  "space.unarchived",
  "space.deleted",
  // A space made from an imported archive (src/imports): {key, name, counts}; one event for all its rows.
  "space.imported",
  // Accounts, sessions, tokens, invites, groups and settings: recorded for the audit log
  // (docs/decisions.md, "Standard Webhooks"). Webhook deliveries filter by type, so these send
  // nothing.
  "user.registered",
  "user.login",
  "user.login_failed",
  "user.logout",
  "user.updated",
  "user.password_changed",
  // Set by whoever runs the server (cairn reset-password), not by the account: actor null.
  "user.password_reset",
  // Account administration (src/users/admin-users.ts): by an account holding users.manage, or
  // (ownership) by the owner. password_reset_link: a one-time reset link was made (never its value).
  "user.role_changed",
  "user.suspended",
  "user.reactivated",
  "user.password_reset_link",
  "user.sessions_revoked",
  "user.tokens_revoked",
  "user.unlocked",
  "user.two_factor_disabled",
  "user.ownership_transferred",
  "session.revoked",
  "token.created",
  "token.revoked",
  "invite.created",
  "invite.deleted",
  "group.created",
  "group.updated",
  "group.deleted",
  "group.member_added",
  "group.member_removed",
  "settings.updated",
  // Roles (src/roles): custom roles made, renamed, deleted; rights changed (by an account, or
  // by Cairn at start-up when a release adds a default right: actor null); a built-in role
  // put back to its defaults; the rights matrix marked reviewed.
  "role.created",
  "role.updated",
  "role.deleted",
  "role.permissions_changed",
  "role.reset",
  "roles.reviewed",
  // Webhooks: created and deleted by space admins; disabled by Cairn after 20 failures in a
  // row (the space admins are to be told: the notifications module reads this event).
  "webhook.created",
  "webhook.deleted",
  "webhook.disabled",
  // Switched off or on by a space admin ({url, enabled}), and a delivery sent again by one.
  "webhook.updated",
  "webhook.redelivered",
  // Attachments: created is sent to webhooks (GET /api/webhooks/events); deleted is for the audit
  // log.
  "attachment.created",
  "attachment.deleted",
  // Access control (audit log): grants and restrictions changed, a space made public or
  // private, an instance administrator giving themselves Admin on a space.
  "space.permission_granted",
  "space.permission_revoked",
  "space.permissions_reset",
  "space.access_recovered",
  "space.visibility_changed",
  "page.restriction_added",
  "page.restriction_removed",
  // Branding (src/branding): fields changed ({changes: {field: {from, to}}}), a logo or favicon
  // put or taken away ({slot, sha256, contentType}), everything back to Cairn's own.
  "branding.updated",
  "branding.file_uploaded",
  "branding.file_removed",
  "branding.reset",
  // Security administration (src/security): address blocks added and removed by an
  // administrator; alerts raised by a detector (actor null) and acknowledged or resolved.
  "security.block_added",
  "security.block_removed",
  "security.alert_raised",
  "security.alert_acknowledged",
  "security.alert_resolved",
  // The first-run wizard (src/setup): a step marked done or skipped by the owner, and its completion.
  "setup.step_recorded",
  "setup.completed",
  // Backups (src/backups): one taken (by hand, on the schedule, before a migration: actor null
  // unless a person ran it), one removed (by retention or by hand), the policy changed.
  "backup.created",
  "backup.removed",
  "backup.policy_changed",
  // Backup targets (src/backups/targets-*): a slot set, changed or removed ({slot, action,
  // fields}; never a credential), and backups copied off the machine ({slot, counts, bytes}).
  "backup.target_changed",
  "backup.copied",
  // Restores (src/backups/restore-*): the data replaced by a backup ({label, at, safetyLabel,
  // replacedHead: the audit chain's head before}), put back by undo, the kept copy discarded.
  "backup.restored",
  "backup.restore_undone",
  "backup.restore_discarded",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** What an event is about. A session's id is its public handle, a setting's its key. */
export const TARGET_TYPES = [
  "page",
  "space",
  "user",
  "session",
  "token",
  "invite",
  "group",
  "setting",
  "webhook",
  "comment",
  "attachment",
  "security_block",
  "security_alert",
  "setup",
  "role",
  "branding",
  "backup",
] as const;

export type TargetType = (typeof TARGET_TYPES)[number];
