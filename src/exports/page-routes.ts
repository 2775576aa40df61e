import { Elysia, t } from "elysia";
import { contentDisposition } from "../attachments/filenames";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { PageParams } from "../pages/schemas";
import { SECURITY_HEADERS } from "../platform/security-headers";

const PageExportQuery = t.Object({
  format: t.Union([t.Literal("markdown"), t.Literal("html"), t.Literal("pdf")], {
    description:
      "`markdown` (text/markdown), `html` (one self-contained text/html file) or " +
      "`pdf` (application/pdf, printed by Chromium on the server)",
  }),
});

/** The file: a download, sandboxed should a browser ever render it in our origin. */
const FILE_HEADERS = {
  ...SECURITY_HEADERS,
  "content-security-policy": "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'none'",
  "cache-control": "private, no-store",
};

/** The instance's address for absolute links in the file: the configured base URL, else the request's own. */
const baseUrlOf = (core: Core, request: Request) => core.config.baseUrl ?? new URL(request.url).origin;

/** GET /api/pages/{id}/export: one page as a Markdown, HTML or PDF file (page-export.ts). */
export function pageExportRoutes(core: Core) {
  return new Elysia().get(
    "/api/pages/:id/export",
    async ({ params, query, request }) => {
      // Loaded at the first export, not at every start (decisions: "Export and import").
      const { exportPage } = await import("./page-export");
      const file = await exportPage(core, callerOf(request), params.id, query.format, baseUrlOf(core, request));
      return new Response(file.body, {
        headers: {
          ...FILE_HEADERS,
          "content-type": file.contentType,
          "content-disposition": contentDisposition("attachment", file.filename),
        },
      });
    },
    {
      params: PageParams,
      query: PageExportQuery,
      response: {
        200: t.String({
          format: "binary",
          description:
            "The file (text/markdown, text/html or application/pdf); Content-Disposition names " +
            "it after the page's title, `<title>.md`, `.html` or `.pdf`",
          headers: { "Content-Disposition": t.String({ description: "attachment; filename=\"<title>.md\"; filename*=UTF-8''…" }) },
        }),
        ...problems(400, 403, 404, 503),
      },
      detail: {
        tags: ["Export and import"],
        summary: "A page as a file: Markdown, self-contained HTML, or PDF (View on the page; the space's switch for the format)",
        description:
          "**markdown**: the title as `# `, then the document in the Markdown of `GET /api/pages/{id}/markdown` (GFM tables, task " +
          'lists, fenced code with its language, panels `:::panel {kind="…"}`, expands `:::details`), except that mentions are the ' +
          "person's name (`@Alice Chen`), attachments a link line to their download, and relative links and images absolute. " +
          "**html**: one file that looks like the reading view in light and dark (following the reader's system): its " +
          "styles inlined, the page's images (PNG, JPEG, GIF, WebP you may open) inlined up to 2 MB each and 20 MB in all, " +
          "the rest linked; no script, and a Content-Security-Policy that loads nothing else. " +
          "**pdf**: that HTML printed on A4 by Chromium on the server (two at once and twenty waiting, beyond that 503 " +
          "`service_unavailable` with Retry-After; 30 s each; it loads nothing from the network); 503 `export_unavailable` when " +
          "the server has no Chromium (install it with `apt-get install -y chromium`, or set CAIRN_CHROMIUM). " +
          "Links unsafe to follow (`javascript:`, `data:`…) keep their text only. 404 when you cannot read " +
          "the page (the same as a page that does not exist); 403 `export_disabled` when the space's switch " +
          "for the format is off; 400 naming `format` for another format.",
      },
    },
  );
}
