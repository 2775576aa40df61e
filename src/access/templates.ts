/**
 * Who may manage wiki-wide templates (spaceId null). Space templates follow their space
 * (access/spaces.ts): its readers see them, those who may edit it change them.
 *
 * Wiki-wide templates: every signed-in account sees them; holders of `spaces.create` make them;
 * their author or an instance administrator (a role of the Admin or Owner tier) changes and
 * deletes them.
 */
import type { Caller } from "../auth/caller";
import { hasRight, TIER } from "./rights";

const writes = (caller: Caller) => caller.kind === "user" && !caller.token?.readOnly;

export function canCreateWikiTemplate(caller: Caller): boolean {
  return writes(caller) && hasRight(caller, "spaces.create");
}

export function canChangeWikiTemplate(caller: Caller, template: { createdById: string | null }): boolean {
  if (caller.kind !== "user" || !writes(caller)) return false;
  return template.createdById === caller.user.id || caller.role.tier >= TIER.Admin;
}
