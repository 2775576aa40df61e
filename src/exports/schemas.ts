/**
 * What the space exports' routes share: the `progress` parameter and the zip download they
 * answer (pack-routes.ts, site-routes.ts).
 */
import { t } from "elysia";
import { contentDisposition } from "../attachments/filenames";

export const ProgressParam = t.Optional(
  t.String({
    maxLength: 64,
    description: "An id of your choosing (8 to 64 letters, digits, - or _) to follow the export at GET /api/export-progress/{id}",
  }),
);

/** A zip streamed to the client as a download named `filename`. */
export function zipDownload(zip: { filename: string; stream: ReadableStream<Uint8Array> }): Response {
  return new Response(zip.stream, {
    headers: {
      "content-type": "application/zip",
      "content-disposition": contentDisposition("attachment", zip.filename),
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
