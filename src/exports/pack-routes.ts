import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { ProgressParam, zipDownload } from "./schemas";

const PackQuery = t.Object({
  progress: ProgressParam,
});

const Zip = t.String({
  format: "binary",
  description: "The wiki pack as a zip (`application/zip`), streamed; Content-Disposition names it `<KEY>-pack.zip`",
  headers: { "Content-Disposition": t.String({ description: 'attachment; filename="<KEY>-pack.zip"' }) },
});

/** GET /api/spaces/{key}/export/pack: the space as a wiki pack (pack-service.ts). */
export function packExportRoutes(core: Core) {
  return new Elysia().get(
    "/api/spaces/:key/export/pack",
    // The exporter (zip writer and all) is loaded at the first export, not at every start (decisions: "Export and import").
    async ({ params, query, request }) =>
      zipDownload((await import("./pack-service")).exportPack(core, callerOf(request), params.key, query)),
    {
      params: t.Object({ key: t.String({ maxLength: 50 }) }),
      query: PackQuery,
      response: { 200: Zip, ...problems(400, 401, 403, 404, 409) },
      detail: {
        tags: ["Export and import"],
        summary:
          "The space as a wiki pack: a lossless, deterministic zip another Cairn imports as " +
          "a new space (View on the space, signed in; switch `pack`)",
        description:
          "Format 1 (`manifest.json` says `cairn-pack`, version 1, and the counts): `space.json` (name, description, settings, the " +
          "home page), `pages/<NNNNN>.json` one per page in tree order (depth first by position) with its parent, position, title, " +
          "emoji, labels, every version's document, its comments with their anchors (a deleted thread's placeholder is kept while " +
          "it has replies) and its attachments (name, type, size, SHA-256), `blobs/<sha256>` each file once (already-compressed " +
          "files stored as they are), `templates.json` (the space's own templates) and `authors.json` (name and e-mail only: no " +
          "ids, passwords, roles or rights; user ids inside documents and comment bodies are written `author:<ref>`; a deleted " +
          "account is null). Holds exactly what you may read: published pages, without View-restricted pages you fail and their " +
          "subtrees; trashed pages, drafts, deleted comments, working copies and permissions stay out. The same content gives the " +
          "same bytes. 404 when you cannot read the space; 401 when not signed in (it holds history and authors' e-mails); 403 " +
          "`export_disabled` when the space's `pack` switch is off. Streamed, so memory stays flat however large the space; " +
          "`progress` follows it.",
      },
    },
  );
}
