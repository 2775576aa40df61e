/**
 * Who may change, delete, resolve and reopen comments. Who may read and write comments at all
 * is decided with the page (access/pages.ts: canReadComments, canComment,
 * requireCommentablePage); every rule here comes on top of that.
 *
 * - Editing a comment: its author only.
 * - Deleting one: its author or an administrator of the space.
 * - Resolving and reopening a thread close and open a discussion for everyone, so they need
 *   more than the View that commenting needs: Edit on the page (its Edit restrictions
 *   included), or being the one who started the thread (docs/permissions.md, "Comment
 *   threads"). Someone with View alone could otherwise hide others' open questions.
 */
import type { UserCaller } from "../identity/caller";
import type { Core } from "../core";
import { AppError } from "../platform/errors";
import type { PageRow } from "../pages/tables";
import type { SpaceRow } from "../spaces/tables";
import { canEditPage } from "./pages";
import { canAdminSpace } from "./spaces";

interface Authored {
  authorId: string | null;
}

/** 403 unless the caller wrote the comment. */
export function requireCommentAuthor(caller: UserCaller, comment: Authored): void {
  if (comment.authorId !== caller.user.id) throw new AppError("forbidden", {}, "Only its author may edit a comment");
}

export function canDeleteComment(core: Core, caller: UserCaller, comment: Authored, space: SpaceRow): boolean {
  return comment.authorId === caller.user.id || canAdminSpace(core, caller, space);
}

/** 403 unless the caller wrote the comment or administers its space. */
export function requireCommentRemover(core: Core, caller: UserCaller, comment: Authored, space: SpaceRow): void {
  if (!canDeleteComment(core, caller, comment, space))
    throw new AppError("forbidden", {}, "Only its author or an administrator of the space may delete a comment");
}

export interface Thread {
  /** The thread's first comment. */
  row: Authored;
  page: PageRow;
  space: SpaceRow;
}

export function canKeepThread(core: Core, caller: UserCaller, thread: Thread): boolean {
  return thread.row.authorId === caller.user.id || canEditPage(core, caller, thread.space, thread.page);
}

/** 403 unless the caller is the thread's author or may edit its page. */
export function requireThreadKeeper(core: Core, caller: UserCaller, thread: Thread): void {
  if (!canKeepThread(core, caller, thread)) {
    throw new AppError("forbidden", {}, "Only the thread's author or someone who may edit the page may resolve or reopen it");
  }
}
