import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { bodyLimit, MB } from "../http/body";
import { callerOf } from "../http/request-state";
import { NoContent, noContent, problems } from "../http/schemas";
import { fileResponse } from "./file-response";
import { Attachment, FileBytes, IdParams, uploadRequestBody } from "./schemas";
import { ATTACHMENT_MAX_BYTES, deleteAttachment, getAttachment, listAttachments, openAttachment, uploadAttachment } from "./service";

const detail = (summary: string, extra: Record<string, unknown> = {}) => ({ tags: ["Attachments"], summary, ...extra });

/**
 * /api/pages/{id}/attachments and /api/attachments/{id} (the page routes name their parameter
 * `id`). The upload reads its own body as a stream, counting the file's bytes against its limit.
 */
export function attachmentRoutes(core: Core) {
  return new Elysia()
    .post(
      "/api/pages/:id/attachments",
      async ({ params, request, set }) => {
        const attachment = await uploadAttachment(core, callerOf(request), params.id, {
          contentType: request.headers.get("content-type"),
          contentLength: request.headers.get("content-length"),
          body: request.body,
        });
        set.status = 201;
        return attachment;
      },
      {
        params: IdParams,
        response: { 201: Attachment, ...problems(400, 401, 403, 404, 409, 413, 415) },
        detail: detail("Upload a file to a page (multipart/form-data, field `file`, at most 25 MB); fires attachment.created", {
          description:
            "Needs Edit on the page. The content type is detected from the file's bytes; the filename is cleaned. A file " +
            "over 25 MB is refused with 413 `payload_too_large` (`limit`: 26214400) while it streams.",
          requestBody: uploadRequestBody,
          ...bodyLimit(ATTACHMENT_MAX_BYTES, `Attachments may be at most ${ATTACHMENT_MAX_BYTES / MB} MB.`, { streamed: true }),
        }),
      },
    )
    .get("/api/pages/:id/attachments", ({ params, request }) => listAttachments(core, callerOf(request), params.id), {
      params: IdParams,
      response: { 200: t.Array(Attachment), ...problems(404) },
      detail: detail("A page's attachments, oldest first"),
    })
    .get("/api/attachments/:id", ({ params, request }) => getAttachment(core, callerOf(request), params.id), {
      params: IdParams,
      response: { 200: Attachment, ...problems(404) },
      detail: detail("An attachment's details"),
    })
    .get(
      "/api/attachments/:id/download",
      async ({ params, request }) => fileResponse(request, await openAttachment(core, callerOf(request), params.id), "download"),
      {
        params: IdParams,
        response: { 200: FileBytes("The file"), ...problems(404) },
        detail: detail("The file, always as a download (Content-Disposition: attachment)"),
      },
    )
    .get(
      "/api/attachments/:id/view",
      async ({ params, request }) => fileResponse(request, await openAttachment(core, callerOf(request), params.id), "view"),
      {
        params: IdParams,
        response: { 200: FileBytes("The file, inline for the safe types, else as a download"), ...problems(404) },
        detail: detail(
          "The file for showing in the browser: PNG, JPEG, GIF, WebP, PDF and plain text inline (sandboxed); anything else as a download",
        ),
      },
    )
    .delete(
      "/api/attachments/:id",
      ({ params, request }) => {
        deleteAttachment(core, callerOf(request), params.id);
        return noContent();
      },
      {
        params: IdParams,
        response: { 204: NoContent, ...problems(401, 403, 404, 409) },
        detail: detail("Delete an attachment (needs Edit on its page); the file goes once nothing refers to it"),
      },
    );
}
