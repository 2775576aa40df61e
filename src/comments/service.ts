/**
 * Comments on pages (docs/decisions.md, "Comments"): whole-page or inline (anchorJson), one level
 * of replies, edit by the author, delete by the author or a space admin, resolve and reopen a
 * thread (its author or an editor of the page). Who may see and write comments is decided in
 * access/pages.ts (canReadComments, requireCommentablePage), who may edit, delete, resolve and
 * reopen them in access/comments.ts.
 */
import { importedName } from "../users/imported-name";
import { requireCommentAuthor, requireCommentRemover, requireThreadKeeper } from "../access/comments";
import { canReadComments, requireCommentablePage } from "../access/pages";
import { requireUser, type Caller, type UserCaller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { AppError, invalid, notFound } from "../platform/errors";
import { multiLine } from "../platform/text";
import { findPage } from "../pages/store";
import { PAGE_STATUS, type PageRow } from "../pages/tables";
import { mentionedIds } from "./mentions";
import {
  commentById,
  commentOnPage,
  commentsOfPageWithAuthors,
  commentWithAuthor,
  deleteCommentRow,
  deleteEmptiedParent,
  existingUserIds,
  insertComment,
  replyCount,
  updateCommentRow,
} from "./store";
import type { CommentRow } from "./tables";

/** Characters are Unicode code points (an emoji is one). */
export const MAX_BODY_CHARS = 10_000;
/** Bytes of UTF-8: an anchor records a passage, not a copy of the page. */
export const MAX_ANCHOR_BYTES = 10_000;

/** A comment as the API answers it (docs/api.md, "Response shapes"). */
export function toComment(row: CommentRow, authorName: string | null) {
  return {
    id: row.id,
    pageId: row.pageId,
    parentCommentId: row.parentId,
    body: row.body,
    anchorJson: row.anchorJson,
    authorId: row.authorId,
    // A comment an import could not credit to an account is the importer's, named as the archive named it.
    authorName: row.importedAuthor !== null ? importedName(row.importedAuthor) : authorName,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    resolvedAt: row.resolvedAt,
    resolvedById: row.resolvedById,
    isDeleted: row.deletedAt !== null,
  };
}

export type Comment = ReturnType<typeof toComment>;

/** A comment and the user ids its body mentions (existing accounts only), for notifications. */
export interface CommentWrite {
  comment: Comment;
  mentionedUserIds: string[];
}

/** Plain text: tab and line feed are the only controls allowed (platform/text.ts). */
export function checkBody(body: unknown): string {
  if (typeof body !== "string") throw invalid("body", "must be text");
  const text = multiLine("body", body).trim();
  if (!text) throw invalid("body", "must not be blank");
  const chars = [...text].length;
  if (chars > MAX_BODY_CHARS) throw invalid("body", `must be at most ${MAX_BODY_CHARS} characters (got ${chars})`);
  return text;
}

/** anchorJson: null/absent (a whole-page comment) or JSON object text, stored exactly as sent. */
export function checkAnchor(anchor: unknown): string | null {
  if (anchor === undefined || anchor === null) return null;
  if (typeof anchor !== "string") throw invalid("anchorJson", "must be a string holding a JSON object, or null");
  if (Buffer.byteLength(anchor, "utf8") > MAX_ANCHOR_BYTES) throw invalid("anchorJson", `must be at most ${MAX_ANCHOR_BYTES} bytes`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(anchor);
  } catch {
    throw invalid("anchorJson", "is not valid JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw invalid("anchorJson", "must be a JSON object");
  return anchor;
}

/** Mentioned ids that name an account; the rest of a body's "mentions" are just text. */
function existingUsers(core: Core, ids: string[]): string[] {
  if (!ids.length) return [];
  const found = new Set(existingUserIds(core, ids));
  return ids.filter((id) => found.has(id));
}

function readComment(core: Core, id: string): Comment {
  const row = commentWithAuthor(core, id)!;
  return toComment(row.c, row.name);
}

/** GET /api/pages/{id}/comments: threads in creation order, each followed by its replies. */
export function listComments(core: Core, caller: Caller, pageId: string): Comment[] {
  const found = findPage(core, pageId);
  if (!found || !canReadComments(core, caller, found.space, found.page)) throw notFound("Page not found");
  const rows = commentsOfPageWithAuthors(core, found.page.id);
  const replies = new Map<string, Comment[]>();
  for (const r of rows) {
    if (r.c.parentId) replies.set(r.c.parentId, [...(replies.get(r.c.parentId) ?? []), toComment(r.c, r.name)]);
  }
  return rows.filter((r) => !r.c.parentId).flatMap((r) => [toComment(r.c, r.name), ...(replies.get(r.c.id) ?? [])]);
}

export interface NewComment {
  body: string;
  parentCommentId?: string | null;
  anchorJson?: string | null;
}

/** Events only for published pages: drafts are private until published. */
function commentEvent(
  core: Core,
  caller: UserCaller,
  type: "comment.created" | "comment.updated" | "comment.resolved",
  page: PageRow,
  row: CommentRow,
  data: Record<string, unknown>,
) {
  if (page.status !== PAGE_STATUS.Published) return;
  recordEvent(core, {
    type,
    targetType: "comment",
    targetId: row.id,
    spaceId: page.spaceId,
    actorId: caller.user.id,
    ip: caller.ip,
    data: { pageId: page.id, pageTitle: page.title, ...data },
  });
}

/**
 * POST /api/pages/{id}/comments. A reply names a top-level comment of the same page (400 on
 * parentCommentId otherwise) and takes its thread's anchor (400 on anchorJson if it sends one).
 */
export function createComment(core: Core, caller: Caller, pageId: string, input: NewComment): CommentWrite {
  const user = requireUser(caller);
  const body = checkBody(input.body);
  const anchor = checkAnchor(input.anchorJson);
  return core.tx(() => {
    const { page } = requireCommentablePage(core, user, findPage(core, pageId));
    let parentId: string | null = null;
    if (input.parentCommentId) {
      const parent = commentOnPage(core, input.parentCommentId, page.id);
      if (!parent) throw invalid("parentCommentId", "must be a comment on this page");
      if (parent.parentId) throw invalid("parentCommentId", "is a reply; reply to the first comment of its thread (one level of replies)");
      if (anchor !== null) throw invalid("anchorJson", "must be left out of a reply: replies belong to their thread's passage");
      parentId = parent.id;
    }
    const now = iso(core.clock.now());
    const row = insertComment(core, {
      id: newId(),
      pageId: page.id,
      parentId,
      body,
      anchorJson: anchor,
      authorId: user.user.id,
      createdAt: now,
      updatedAt: now,
    });
    const mentionedUserIds = existingUsers(core, mentionedIds(body));
    commentEvent(core, user, "comment.created", page, row, { parentCommentId: parentId, inline: anchor !== null, mentionedUserIds });
    return { comment: toComment(row, user.user.displayName), mentionedUserIds };
  });
}

/** A comment and its page, as a caller who may write comments there finds it (404 / 401 / 403 / 409). */
function writableComment(core: Core, caller: UserCaller, id: string) {
  const row = commentById(core, id);
  const found = row && findPage(core, row.pageId);
  if (!row || !found || !canReadComments(core, caller, found.space, found.page)) throw notFound("Comment not found");
  const { page, space } = requireCommentablePage(core, caller, found);
  return { row, page, space };
}

const alreadyDeleted = () => new AppError("conflict", { detail: "Deleted comments cannot be changed." }, "This comment was deleted");

/** PUT /api/comments/{id}: its author only. Answers the ids mentioned for the first time. */
export function updateComment(core: Core, caller: Caller, id: string, input: { body: string }): CommentWrite {
  const user = requireUser(caller);
  const body = checkBody(input.body);
  return core.tx(() => {
    const { row, page } = writableComment(core, user, id);
    if (row.deletedAt) throw alreadyDeleted();
    requireCommentAuthor(user, row);
    updateCommentRow(core, row.id, { body, updatedAt: iso(core.clock.now()) });
    const before = new Set(mentionedIds(row.body));
    const mentionedUserIds = existingUsers(
      core,
      mentionedIds(body).filter((m) => !before.has(m)),
    );
    // Recorded for the audit log, and so that people mentioned for the first time are told.
    commentEvent(core, user, "comment.updated", page, row, { mentionedUserIds });
    return { comment: readComment(core, row.id), mentionedUserIds };
  });
}

/**
 * DELETE /api/comments/{id}: its author or an administrator of the space.
 * 1. A comment with replies stays as a placeholder: body emptied, author cleared, isDeleted;
 *    its anchor and resolution stay so the thread keeps its place and state.
 * 2. Otherwise the row goes; a reply that was the last one under a deleted placeholder takes
 *    the placeholder with it.
 * Deleting a placeholder again changes nothing.
 */
export function deleteComment(core: Core, caller: Caller, id: string): void {
  const user = requireUser(caller);
  core.tx(() => {
    const { row, space } = writableComment(core, user, id);
    requireCommentRemover(core, user, row, space);
    if (row.deletedAt) return;
    const replies = replyCount(core, row.id);
    // 1.
    if (replies > 0) {
      updateCommentRow(core, row.id, { body: "", authorId: null, deletedAt: iso(core.clock.now()), updatedAt: iso(core.clock.now()) });
      return;
    }
    // 2.
    deleteCommentRow(core, row.id);
    if (row.parentId) {
      deleteEmptiedParent(core, row.parentId);
    }
  });
}

function threadOnly(row: CommentRow): void {
  if (row.parentId) throw invalid("id", "is a reply; resolve or reopen the first comment of its thread");
}

/** POST /api/comments/{id}/resolve: the thread's author or an editor of the page; records who and when (once). */
export function resolveComment(core: Core, caller: Caller, id: string): Comment {
  const user = requireUser(caller);
  return core.tx(() => {
    const found = writableComment(core, user, id);
    const { row, page } = found;
    threadOnly(row);
    requireThreadKeeper(core, user, found);
    if (!row.resolvedAt) {
      updateCommentRow(core, row.id, { resolvedAt: iso(core.clock.now()), resolvedById: user.user.id });
      commentEvent(core, user, "comment.resolved", page, row, {});
    }
    return readComment(core, row.id);
  });
}

/** POST /api/comments/{id}/reopen: the same people as resolving; clears who and when. */
export function reopenComment(core: Core, caller: Caller, id: string): Comment {
  const user = requireUser(caller);
  return core.tx(() => {
    const found = writableComment(core, user, id);
    const { row } = found;
    threadOnly(row);
    requireThreadKeeper(core, user, found);
    if (row.resolvedAt) updateCommentRow(core, row.id, { resolvedAt: null, resolvedById: null });
    return readComment(core, row.id);
  });
}
