import { t } from "elysia";
import { Id } from "../http/schemas";

export const Attachment = t.Object(
  {
    id: t.String(),
    pageId: t.String(),
    filename: t.String({ description: "As uploaded, cleaned: no folders or control characters, at most 255 characters" }),
    contentType: t.String({ description: "Detected from the file's bytes (the client's claim is ignored); application/octet-stream when unknown" }),
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

/** A file answer (download or view), for the API description. */
export const fileResponse = (description: string) => ({
  description,
  headers: {
    "Content-Disposition": { schema: { type: "string" }, description: "attachment (or inline on /view for safe types); filename and filename* (RFC 6266)" },
    "X-Content-Type-Options": { schema: { type: "string", const: "nosniff" } },
  },
  content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
});
