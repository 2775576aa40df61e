import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { ProgressParam, zipDownload } from "./schemas";

const SiteQuery = t.Object({
  audience: t.Optional(
    t.Union([t.Literal("anonymous"), t.Literal("me")], {
      description:
        "Whose view of the space: `me` (default, what you may read) or `anonymous` (what an anonymous reader " +
        "of the public space sees; 400 naming `audience` when the space is not public)",
    }),
  ),
  progress: ProgressParam,
});

const Zip = t.String({
  format: "binary",
  description: "The site as a zip (`application/zip`), streamed; Content-Disposition names it `<KEY>-site.zip`",
  headers: { "Content-Disposition": t.String({ description: 'attachment; filename="<KEY>-site.zip"' }) },
});

/** GET /api/spaces/{key}/export/site: the space as a static website (site-service.ts). */
export function siteExportRoutes(core: Core) {
  return new Elysia().get(
    "/api/spaces/:key/export/site",
    // Loaded at the first export, not at every start (decisions: "Export and import").
    async ({ params, query, request }) =>
      zipDownload((await import("./site-service")).exportSite(core, callerOf(request), params.key, query)),
    {
      params: t.Object({ key: t.String({ maxLength: 50 }) }),
      query: SiteQuery,
      response: { 200: Zip, ...problems(400, 403, 404, 409) },
      detail: {
        tags: ["Export and import"],
        summary:
          "The space as a static website: a zip of HTML pages to open from disk or serve anywhere (View on the space; switch `site`)",
        description:
          "An `index.html` per page in folders named after the titles and mirroring the tree, the space's front page at the root, " +
          "relative links (links between pages inside the content too), the sidebar tree on every page, attachments and images as " +
          "files under `_files/` (SVG rewritten by the sanitiser; HTML, XML, scripts and any type outside a safe list of images, " +
          "documents, media and archives get `.txt` added, so no static host renders them, and their links download them under " +
          "their own name), a Content-Security-Policy meta tag on every page (script only from the site's own files), the app's " +
          "reading styles in light and dark (following the system), and a client-side search over a prebuilt index; nothing is " +
          "loaded from another host. Links to pages that are not in the export point at this instance when its base URL is " +
          "configured, else keep their text only. Holds exactly what the audience may read: published pages, without " +
          "View-restricted pages and their subtrees (and their attachments) for those they shut out. 404 when you cannot read the " +
          "space; 403 `export_disabled` when the space's `site` switch is off; 400 naming `audience` for `anonymous` on a space " +
          "that is not public. Streamed, so memory stays flat however large the space; `progress` follows it.",
      },
    },
  );
}
