import { join } from "node:path";
import { Elysia } from "elysia";
import type { Core } from "../core";
import { openApiDocument } from "./docs-openapi";
import { docsPage, embeddedScalar, INIT_JS, initScript, SCALAR_JS, SPEC_URL } from "./docs-page";
import { SECURITY_HEADERS } from "../platform/security-headers";

const JS = "text/javascript; charset=utf-8";
/** Asset URLs carry ?v=<version> (docs-page.ts), so a release never serves a stale copy. */
const CACHE_FOR_GOOD = "public, max-age=31536000, immutable";
// The routes that serve the description itself are left out of it.
const hide = { detail: { hide: true } };

/**
 * Scalar's browser bundle (4 MB). From source: the package's file (its exports map does not list
 * the browser build, so it is found by path), gzipped once on first use. The binary embeds only
 * the gzipped copy the build made, about a quarter of it (scripts/build.ts hands it to
 * docs-page.ts's embedScalar), and unzips it for the rare client that does not take gzip.
 */
const SCALAR_SOURCE = join(import.meta.dir, "../../node_modules/@scalar/api-reference/dist/browser/standalone.js");

/**
 * GET /api/openapi.json and the interactive reference at GET /api/docs, both readable without
 * an account. Nothing is fetched from
 * another host: @elysiajs/openapi's own page loads Scalar from a CDN, so only its generator is
 * used and the page is ours.
 */
export function docsRoutes(core: Core) {
  let scalarGzip: Promise<Uint8Array<ArrayBuffer>> | null = null;

  const plugin = new Elysia();
  const description = openApiDocument(plugin, core.version);
  const scalar = async ({ request }: { request: Request }) => {
    const headers: Record<string, string> = {
      ...SECURITY_HEADERS,
      "content-type": JS,
      "cache-control": CACHE_FOR_GOOD,
      vary: "accept-encoding",
    };
    const gzip = /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
    const scalarEmbeddedGz = embeddedScalar();
    if (scalarEmbeddedGz) {
      if (gzip) return new Response(Bun.file(scalarEmbeddedGz), { headers: { ...headers, "content-encoding": "gzip" } });
      return new Response(Bun.gunzipSync(await Bun.file(scalarEmbeddedGz).bytes()), { headers });
    }
    if (!gzip) return new Response(Bun.file(SCALAR_SOURCE), { headers });
    scalarGzip ??= Bun.file(SCALAR_SOURCE)
      .bytes()
      .then((bytes) => Bun.gzipSync(bytes) as Uint8Array<ArrayBuffer>);
    return new Response(await scalarGzip, { headers: { ...headers, "content-encoding": "gzip" } });
  };

  return plugin
    .get(SPEC_URL, description, hide)
    .get(
      "/api/docs",
      () =>
        new Response(docsPage(core.version), {
          headers: { ...SECURITY_HEADERS, "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" },
        }),
      hide,
    )
    .get(
      INIT_JS,
      () => new Response(initScript(), { headers: { ...SECURITY_HEADERS, "content-type": JS, "cache-control": CACHE_FOR_GOOD } }),
      hide,
    )
    .get(SCALAR_JS, scalar, hide);
}
