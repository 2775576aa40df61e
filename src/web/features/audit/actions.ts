/**
 * The actions the audit log records, by kind, for the screen's "What" picker: the server's
 * event catalogue (src/events/outbox.ts EVENT_TYPES), which the web cannot import. A test in
 * src/audit/filters.test.ts fails when the two differ.
 */
export const AUDIT_ACTIONS = {
  page: ["page.created", "page.updated", "page.moved", "page.trashed", "page.restored", "page.purged", "page.restriction_added", "page.restriction_removed"],
  label: ["label.added", "label.removed"],
  comment: ["comment.created", "comment.updated", "comment.resolved"],
  space: ["space.created", "space.updated", "space.archived", "space.unarchived", "space.deleted", "space.imported", "space.permission_granted", "space.permission_revoked", "space.permissions_reset", "space.access_recovered", "space.visibility_changed"],
  user: ["user.registered", "user.login", "user.login_failed", "user.logout", "user.updated", "user.password_changed", "user.password_reset", "user.role_changed", "user.suspended", "user.reactivated", "user.password_reset_link", "user.sessions_revoked", "user.tokens_revoked", "user.unlocked", "user.two_factor_disabled", "user.ownership_transferred"],
  session: ["session.revoked"],
  token: ["token.created", "token.revoked"],
  invite: ["invite.created", "invite.deleted"],
  group: ["group.created", "group.updated", "group.deleted", "group.member_added", "group.member_removed"],
  settings: ["settings.updated"],
  role: ["role.created", "role.updated", "role.deleted", "role.permissions_changed", "role.reset", "roles.reviewed"],
  setup: ["setup.step_recorded", "setup.completed"],
  webhook: ["webhook.created", "webhook.deleted", "webhook.disabled", "webhook.updated", "webhook.redelivered"],
  attachment: ["attachment.created", "attachment.deleted"],
  branding: ["branding.updated", "branding.file_uploaded", "branding.file_removed", "branding.reset"],
  security: ["security.block_added", "security.block_removed", "security.alert_raised", "security.alert_acknowledged", "security.alert_resolved"],
  backup: ["backup.created", "backup.removed", "backup.policy_changed", "backup.target_changed", "backup.copied", "backup.restored", "backup.restore_undone", "backup.restore_discarded"],
} as const;

export type AuditKind = keyof typeof AUDIT_ACTIONS;
