/**
 * Whether an account may be in a page's room, now: asked when a token is issued, before a
 * WebSocket is upgraded, and again whenever rights, the page or the space change while it is
 * connected. The rules are access/pages.ts's; this only says which close code and sentence a
 * refusal gets (4400–4499: y-websocket does not reconnect after those).
 */
import { pageAccess } from "../access/pages";
import type { Core } from "../core";
import type { UserCaller } from "../identity/caller";
import { findPageMeta } from "../pages/store";
import { USER_STATUS, findUserWithRoleById } from "../users/service";

export const CLOSE = {
  expired: { code: 4401, status: 401, reason: "Your editing session expired. Reopen the page to keep editing." },
  forbidden: { code: 4403, status: 403, reason: "You may no longer edit this page." },
  suspended: { code: 4403, status: 403, reason: "Your account was suspended: you can no longer edit." },
  gone: { code: 4404, status: 404, reason: "This page was moved to the trash or is no longer visible to you." },
  archived: { code: 4423, status: 403, reason: "This space was archived: its pages can no longer be edited." },
  flooding: { code: 4429, status: 429, reason: "Too many changes too fast: this connection was closed. Reload the page to keep editing." },
} as const;

export type Refusal = (typeof CLOSE)[keyof typeof CLOSE];

/** The account as the access rules see it: its own role, no token (the collab token stands in). */
export function editorCaller(core: Core, userId: string): UserCaller | null {
  const found = findUserWithRoleById(core, userId);
  if (!found || found.user.status !== USER_STATUS.Active) return null;
  return {
    kind: "user",
    ip: "",
    user: found.user,
    role: found.role,
    permissions: new Set(found.role.permissions),
    session: null,
    token: null,
  };
}

/** null: the account may edit the page now; otherwise why not. */
export function roomRefusal(core: Core, userId: string, pageId: string): Refusal | null {
  const caller = editorCaller(core, userId);
  if (!caller) return CLOSE.suspended;
  const found = findPageMeta(core, pageId);
  if (!found) return CLOSE.gone;
  const access = pageAccess(core, caller, found.space, found.page);
  if (!access.read || found.page.deletedAt) return CLOSE.gone;
  if (found.space.archivedAt) return CLOSE.archived;
  if (!access.edit) return CLOSE.forbidden;
  return null;
}
