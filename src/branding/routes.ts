import { Elysia } from "elysia";
import type { Core } from "../core";
import { bodyLimit, MB } from "../http/body";
import { callerOf } from "../http/request-state";
import { NoContent, noContent, problems } from "../http/schemas";
import { notFound } from "../platform/errors";
import { SECURITY_HEADERS } from "../platform/security-headers";
import { blobStore } from "../platform/blobstore";
import { FILE_MAX_BYTES, uploadBrandingFile } from "./files";
import {
  AccentPreview,
  AccentPreviewRequest,
  Branding,
  BrandingChange,
  BrandingImage,
  brandingUploadBody,
  SlotParams,
  UploadedBrandingFile,
  VersionQuery,
} from "./schemas";
import { brandingFileRow, previewAccent, readBranding, removeBrandingFile, resetBranding, updateBranding, type Slot } from "./service";

const tags = ["Admin"];
const REAUTH =
  "Needs the right branding.manage and a password confirmed in the last 5 minutes " +
  "(POST /api/auth/reauth): a token gets 403 `reauth_required`.";

/** /api/admin/branding (right branding.manage) and the images it serves to anyone (/api/branding/{slot}). */
export function brandingRoutes(core: Core) {
  const admin = new Elysia({ prefix: "/api/admin/branding" })
    .get("/", ({ request }) => readBranding(core, callerOf(request)), {
      response: { 200: Branding, ...problems(401, 403) },
      detail: { tags, summary: "The branding, defaults included (right branding.manage)" },
    })
    .put("/", ({ body, request }) => updateBranding(core, callerOf(request), body as Record<string, unknown>), {
      body: BrandingChange,
      response: { 200: Branding, ...problems(400, 401, 403) },
      detail: {
        tags,
        summary: "Change the branding; answers all of it",
        description:
          `Send only the fields to change; one refused value changes nothing. Accent colours must reach WCAG AA where they are used ` +
          `(see accent-preview); a colour that does not is refused with 400 naming the field and carrying \`suggestion\`. The ` +
          `changed fields are recorded in one \`branding.updated\` audit entry (old and new values). ${REAUTH}`,
      },
    })
    .post("/accent-preview", ({ body, request }) => previewAccent(core, callerOf(request), body), {
      body: AccentPreviewRequest,
      response: { 200: AccentPreview, ...problems(400, 401, 403) },
      detail: {
        tags,
        summary: "Check accent colours for contrast (WCAG AA) and suggest the nearest that passes; changes nothing",
        description:
          "For each colour sent: its contrast ratio against what it meets in its theme (the page background and surface it " +
          "is written on, the label written on it in primary buttons), whether each reaches AA (4.5:1), and a suggested " +
          "colour of the same hue that passes. Right branding.manage; no re-authentication.",
      },
    })
    .post("/reset", ({ request }) => resetBranding(core, callerOf(request)), {
      response: { 200: Branding, ...problems(401, 403) },
      detail: {
        tags,
        summary: "Every branding field and image back to Cairn's own; answers the branding",
        description: `Recorded as \`branding.reset\`. ${REAUTH}`,
      },
    });
  for (const slot of ["logo", "logo-dark", "favicon"] as const) {
    const what = slot === "favicon" ? "the favicon" : slot === "logo" ? "the logo" : "the logo for the dark theme";
    admin
      .put(
        `/${slot}`,
        ({ request }) =>
          uploadBrandingFile(core, callerOf(request), slot, {
            contentType: request.headers.get("content-type"),
            contentLength: request.headers.get("content-length"),
            body: request.body,
          }),
        {
          response: { 200: UploadedBrandingFile, ...problems(400, 401, 403, 413, 415) },
          detail: {
            tags,
            summary: `Upload ${what} (multipart/form-data, field \`file\`: PNG, WebP or SVG, at most ${FILE_MAX_BYTES / MB} MB)`,
            description:
              `PNG and WebP are decoded and encoded again (metadata and anything after the image data dropped; shrunk to fit ` +
              `${slot === "favicon" ? "256 × 256" : "1200 × 400"}, stored as PNG). SVG is rewritten from an allow-list: scripts, ` +
              `event handlers, foreignObject, styles, embedded images and links outside the image are removed (listed in ` +
              `\`removed\`); an SVG that does not parse, or declares a DOCTYPE or entities, is refused (400). Anything else is 415; ` +
              `over ${FILE_MAX_BYTES / MB} MB, 413. Recorded as \`branding.file_uploaded\`. ${REAUTH}`,
            requestBody: brandingUploadBody,
            ...bodyLimit(FILE_MAX_BYTES, `Logos and favicons may be at most ${FILE_MAX_BYTES / MB} MB.`, { streamed: true }),
          },
        },
      )
      .delete(
        `/${slot}`,
        ({ request }) => {
          removeBrandingFile(core, callerOf(request), slot);
          return noContent();
        },
        {
          response: { 204: NoContent, ...problems(401, 403) },
          detail: {
            tags,
            summary: `Remove ${what} (204 also when there was none)`,
            description: `Recorded as \`branding.file_removed\`. ${REAUTH}`,
          },
        },
      );
  }
  const files = new Elysia().get(
    "/api/branding/:slot",
    ({ params, query, request }) => serveImage(core, params.slot as Slot, query.v, request),
    {
      params: SlotParams,
      query: VersionQuery,
      response: { 200: BrandingImage, ...problems(404) },
      detail: {
        tags: ["System"],
        summary: "A branding image (logo, logo-dark, favicon), for anyone",
        description:
          "With `v` equal to the hash in the url from GET /api/instance the answer may be cached for a year " +
          "(the url changes with the image); without it, caches must ask again (ETag).",
        security: [],
      },
    },
  );
  return new Elysia().use(admin).use(files);
}

/** The SVG's own styles may apply; nothing else runs or loads (it was sanitised as well). */
const IMAGE_CSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

async function serveImage(core: Core, slot: Slot, version: string | undefined, request: Request): Promise<Response> {
  const row = brandingFileRow(core, slot);
  const blob = row ? await blobStore(core).open(row.sha256) : null;
  if (!row || !blob) throw notFound("No such branding image");
  const etag = `"${row.sha256}"`;
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    "content-security-policy": IMAGE_CSP,
    "x-content-type-options": "nosniff",
    "content-type": row.contentType,
    "cache-control": version === row.sha256.slice(0, 16) ? "public, max-age=31536000, immutable" : "no-cache",
    etag,
  };
  if (
    request.headers
      .get("if-none-match")
      ?.split(",")
      .some((t) => t.trim() === etag)
  )
    return new Response(null, { status: 304, headers });
  return new Response(blob, { status: 200, headers });
}
