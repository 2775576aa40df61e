/**
 * Who may manage wiki-wide templates (spaceId null). Space templates follow their space
 * (access/spaces.ts): its readers see them, those who may edit it change them.
 *
 * Wiki-wide templates: every signed-in account sees them. They are offered in every space to
 * everyone, so only instance administrators (a role of the Admin or Owner tier) make, change and
 * delete them (docs/permissions.md, "Wiki-wide templates"). `spaces.create` is not enough, and
 * being a template's author gives no say of its own: a member who wrote one before this rule, or an
 * administrator since demoted, is refused like any other member.
 */
import type { Caller } from "../identity/caller";
import { AppError } from "../platform/errors";
import { TIER } from "../identity/rights";

export function canManageWikiTemplates(caller: Caller): boolean {
  return caller.kind === "user" && !caller.token?.readOnly && caller.role.tier >= TIER.Admin;
}

/** 403 `read_only_token` or `forbidden` unless the caller may manage wiki-wide templates. */
export function requireWikiTemplateManager(caller: Caller): void {
  if (canManageWikiTemplates(caller)) return;
  // The pipeline refuses read-only tokens before any write route; this keeps direct calls honest too.
  if (caller.kind === "user" && caller.token?.readOnly) throw new AppError("read_only_token");
  throw new AppError("forbidden", {}, "Only administrators may make, change or delete wiki-wide templates");
}
