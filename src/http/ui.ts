/**
 * Serves the web UI: GET / and the app's own paths answer index.html (the app routes in the
 * browser), GET /assets/<file> the bundle's files. /api/* never falls back to the page, and
 * neither does a path with a file extension: both stay 404s.
 *
 * The compiled binary carries the built files (scripts/build.ts registers them with embedUi
 * before the server starts); from source, the UI is bundled in memory on first use.
 */
import { ASSET_PREFIX } from "./ui-bundle";
import { SECURITY_HEADERS } from "./security-headers";

interface Asset {
  bytes: Uint8Array<ArrayBuffer>;
  type: string;
  gzip: Uint8Array<ArrayBuffer> | null;
}

let embedded: Record<string, string> | null = null;
let loading: Promise<Map<string, Asset>> | null = null;

/** Called by the compiled binary's entry with `name → embedded file path`. */
export function embedUi(files: Record<string, string>): void {
  embedded = files;
}

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  woff2: "font/woff2",
  json: "application/json",
};

async function load(): Promise<Map<string, Asset>> {
  const blobs = new Map<string, Blob>();
  if (embedded) for (const [name, path] of Object.entries(embedded)) blobs.set(name, Bun.file(path));
  else for (const [name, blob] of (await (await import("./ui-bundle")).bundleUi()).files) blobs.set(name, blob);
  const assets = new Map<string, Asset>();
  for (const [name, blob] of blobs) {
    const bytes = new Uint8Array(await blob.arrayBuffer());
    const ext = name.slice(name.lastIndexOf(".") + 1);
    const type = TYPES[ext] ?? "application/octet-stream";
    // Text compresses to a quarter or less; compressed once, here, not per request.
    const gzip = /^(text|image\/svg|application\/json)/.test(type) ? (Bun.gzipSync(bytes) as Uint8Array<ArrayBuffer>) : null;
    assets.set(name, { bytes, type, gzip });
  }
  return assets;
}

/** The UI's files, loaded (or bundled) once per process. A failed bundle is retried next time. */
export function uiAssets(): Promise<Map<string, Asset>> {
  loading ??= load().catch((err) => {
    loading = null;
    throw err;
  });
  return loading;
}

/** Starts loading in the background (the server does at start, so the first visit is quick). */
export function warmUi(onError: (err: unknown) => void): void {
  uiAssets().catch(onError);
}

/** Whether a GET of this path is the UI's: not the API, and either an asset or an app path. */
export function isUiPath(path: string): boolean {
  if (path === "/api" || path.startsWith("/api/")) return false;
  if (path.startsWith(ASSET_PREFIX)) return true;
  // The last segment has no extension: an app route (/s/DOCS/p/…), not a missing file.
  return !/\.[A-Za-z0-9]+$/.test(path.slice(path.lastIndexOf("/") + 1));
}

/** The answer for a UI path, or null when there is no such file (the caller answers 404). */
export async function uiResponse(path: string, acceptEncoding: string | null): Promise<Response | null> {
  const assets = await uiAssets();
  const isAsset = path.startsWith(ASSET_PREFIX);
  const asset = assets.get(isAsset ? path.slice(ASSET_PREFIX.length) : "index.html");
  if (!asset) return null;
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    "content-type": asset.type,
    // Asset names carry a hash of their content; the page itself is checked every time.
    "cache-control": isAsset ? "public, max-age=31536000, immutable" : "no-cache",
    vary: "accept-encoding",
  };
  if (asset.gzip && /\bgzip\b/.test(acceptEncoding ?? "")) return new Response(asset.gzip, { headers: { ...headers, "content-encoding": "gzip" } });
  return new Response(asset.bytes, { headers });
}
