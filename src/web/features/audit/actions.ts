/**
 * The actions the audit log records, by kind, for the screen's "What" picker: every name of the
 * server's event catalogue (src/common/events.ts), grouped by the word before the dot, the kinds
 * in the order the picker shows them. src/audit/filters.test.ts fails when one is left out.
 */
import { EVENT_TYPES, type EventType } from "../../../common/events";

const KINDS = [
  "page",
  "label",
  "comment",
  "space",
  "user",
  "session",
  "token",
  "invite",
  "group",
  "settings",
  "role",
  "setup",
  "webhook",
  "attachment",
  "branding",
  "security",
  "backup",
] as const;

/** "roles.reviewed" (the rights matrix marked reviewed) is about roles, as "role.created" is. */
const kindOf = (type: EventType) => (type.startsWith("roles.") ? "role" : type.slice(0, type.indexOf(".")));

export const AUDIT_ACTIONS = Object.fromEntries(KINDS.map((kind) => [kind, EVENT_TYPES.filter((type) => kindOf(type) === kind)])) as Record<
  (typeof KINDS)[number],
  EventType[]
>;

export type AuditKind = keyof typeof AUDIT_ACTIONS;
