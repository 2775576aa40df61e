import { t } from "elysia";
import { Id } from "../http/schemas";

export const Attachment = t.Object(
  {
    id: t.String(),
    pageId: t.String(),
    filename: t.String({ description: "As uploaded, cleaned: no folders or control characters, at most 255 characters" }),
    contentType: t.String({
      description: "Detected from the file's bytes (the client's claim is ignored); application/octet-stream when unknown",
    }),
    size: t.Integer({ description: "Bytes" }),
    uploadedById: t.Nullable(t.String()),
    createdAt: t.String({ format: "date-time" }),
  },
  { title: "Attachment" },
);

export const IdParams = t.Object({ id: Id });

/** The multipart body of an upload, for the API description (the route reads it as a stream). */
export const uploadRequestBody = {
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object",
        required: ["file"],
        properties: { file: { type: "string", format: "binary", description: "The file, at most 25 MB (26214400 bytes)" } },
      },
    },
  },
};

/**
 * A file answer (download or view), for the API description. The generator files a string
 * schema under text/plain; the real Content-Type is the attachment's detected type.
 */
export const FileBytes = (description: string) =>
  t.String({
    format: "binary",
    description:
      `${description}. Content-Type is the type detected at upload (text as UTF-8); always X-Content-Type-Options: nosniff ` +
      `and Content-Security-Policy: sandbox; ETag is the content's SHA-256 (If-None-Match answers 304).`,
    headers: {
      "Content-Disposition": t.String({
        description:
          "attachment, or inline on /view for PNG, JPEG, GIF, WebP, PDF and plain text; filename (ASCII) and filename* (UTF-8, RFC 6266)",
      }),
      "X-Content-Type-Options": t.Literal("nosniff"),
      "Content-Security-Policy": t.String({ description: "starts with sandbox" }),
      ETag: t.String(),
    },
  });
