import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { NoContent, noContent, problems } from "../http/schemas";
import { Comment, CommentParams, EditCommentBody, NewCommentBody } from "./schemas";
import { createComment, deleteComment, listComments, reopenComment, resolveComment, updateComment } from "./service";

const detail = (summary: string) => ({ tags: ["Comments"], summary });

/** /api/pages/{id}/comments and /api/comments/{id} (the page routes name their parameter `id`). */
export function commentRoutes(core: Core) {
  return new Elysia()
    .get("/api/pages/:id/comments", ({ params, request }) => listComments(core, callerOf(request), params.id), {
      params: CommentParams,
      response: { 200: t.Array(Comment), ...problems(404) },
      detail: detail("A page's comments: threads in creation order, each followed by its replies"),
    })
    .post(
      "/api/pages/:id/comments",
      ({ params, body, request, set }) => {
        const { comment } = createComment(core, callerOf(request), params.id, body);
        set.status = 201;
        return comment;
      },
      {
        params: CommentParams,
        body: NewCommentBody,
        response: { 201: Comment, ...problems(400, 401, 403, 404, 409) },
        detail: detail(
          "Comment on a page, on a passage (anchorJson) or in reply to a thread (parentCommentId); needs View; fires comment.created",
        ),
      },
    )
    .put("/api/comments/:id", ({ params, body, request }) => updateComment(core, callerOf(request), params.id, body).comment, {
      params: CommentParams,
      body: EditCommentBody,
      response: { 200: Comment, ...problems(400, 401, 403, 404, 409) },
      detail: detail("Edit a comment (its author only)"),
    })
    .delete(
      "/api/comments/:id",
      ({ params, request }) => {
        deleteComment(core, callerOf(request), params.id);
        return noContent();
      },
      {
        params: CommentParams,
        response: { 204: NoContent, ...problems(401, 403, 404, 409) },
        detail: detail("Delete a comment (its author or a space administrator); one with replies stays as a deleted placeholder"),
      },
    )
    .post("/api/comments/:id/resolve", ({ params, request }) => resolveComment(core, callerOf(request), params.id), {
      params: CommentParams,
      response: { 200: Comment, ...problems(400, 401, 403, 404, 409) },
      detail: detail(
        "Resolve a thread (its first comment): its author or an editor of the page; records who and when; fires comment.resolved",
      ),
    })
    .post("/api/comments/:id/reopen", ({ params, request }) => reopenComment(core, callerOf(request), params.id), {
      params: CommentParams,
      response: { 200: Comment, ...problems(400, 401, 403, 404, 409) },
      detail: detail("Reopen a resolved thread: its author or an editor of the page"),
    });
}
