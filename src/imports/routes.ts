import { Elysia } from "elysia";
import type { Core } from "../core";
import { bodyLimit } from "../http/body";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { ImportAnswer, ImportQuery, importRequestBody } from "./schemas";
import { IMPORT_LIMIT_WHY, IMPORT_MAX_BYTES } from "./limits";

/** POST /api/spaces/import: the upload is read as a stream by the service, never buffered. */
export function importRoutes(core: Core) {
  return new Elysia().post(
    "/api/spaces/import",
    async ({ request, query, set }) => {
      // The importer (zip reader, converters, parse5) is loaded at the first import, not at every start.
      const { importSpace } = await import("./service");
      const answer = await importSpace(core, callerOf(request), {
        contentType: request.headers.get("content-type"),
        contentLength: request.headers.get("content-length"),
        body: request.body,
        query,
        signal: request.signal,
      });
      set.status = 201;
      return answer;
    },
    {
      query: ImportQuery,
      response: { 201: ImportAnswer, ...problems(400, 401, 403, 409, 413, 415, 503) },
      detail: {
        tags: ["Export and import"],
        summary:
          "Import an archive as a new space: a Cairn pack, a zip of Markdown files or a " +
          "Confluence HTML export (multipart, field `file`, at most 500 MB)",
        description:
          "Needs the right to create spaces. The new space gets the `key` sent (a pack's own key when none is sent; 409 " +
          "`key_taken` when it is in use), fresh ids, links between its pages rewritten, authors matched to accounts by e-mail " +
          "only when you may act for others (the owner, or the right `users.manage`; the accounts credited are in the audit " +
          "entry), otherwise a pack's pages, versions and comments are yours and show the archive's names as `Name (imported)`, " +
          "and you as its administrator; it is private (no grant for Everyone) until you share it. " +
          "All or nothing as seen from outside: the space is written in slices while nobody can see it (its key is taken " +
          "meanwhile), made visible at the end, and removed if anything fails or the connection closes first. The archive is " +
          "refused with 400 `import_refused` (field `file`, the reason and the path at fault in `detail`) for paths outside the " +
          "archive, links, encrypted entries, too many entries, too large or too compressed contents, a page the editor could not " +
          "open, a Confluence page past a page's limits (8 MB of HTML, 150,000 elements and pieces of text, its time to convert), " +
          "a pack of a newer format, or a file that is not a zip of a known kind. 413 `payload_too_large` over 500 MB, while it " +
          "streams. " +
          "Follow a long import with `?progress=<id>` at GET /api/export-progress/{id} (phases upload, waiting, reading, " +
          "checking, writing). Imports are converted one at a time across the server: one that arrives while another converts " +
          "waits its turn after its upload, in the phase `waiting`; with 10 already waiting, 503 `service_unavailable` with " +
          "Retry-After before the upload is read. Recorded as one `space.imported` event.",
        requestBody: importRequestBody,
        ...bodyLimit(IMPORT_MAX_BYTES, IMPORT_LIMIT_WHY, { streamed: true }),
      },
    },
  );
}
