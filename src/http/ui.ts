/**
 * Serves the web UI: GET / and the app's own paths answer index.html (the app routes in the
 * browser), GET /assets/<file> the bundle's files. /api/* never falls back to the page, and
 * neither does a path with a file extension: both stay 404s.
 *
 * The compiled binary carries the built files (scripts/build.ts registers them with embedUi
 * before the server starts); from source, the UI is bundled in memory on first use.
 */
import { ASSET_PREFIX } from "./ui-bundle";
import { SECURITY_HEADERS } from "../platform/security-headers";

interface Asset {
  /** Null: the binary embeds only the gzipped copy, unzipped for a client that does not take gzip. */
  body: Blob | null;
  type: string;
  gzip: Blob | null;
}

let embedded: Record<string, string> | null = null;
let loading: Promise<Map<string, Asset>> | null = null;
/** index.html's stylesheet and script, and the tree's chunks, as preloads, read once per bundle (ui-preload.ts). */
let pageAssets: Promise<{ page: string[]; space: string[] }> | null = null;
/** index.html with the page view's frame, per theme, made once per bundle (ui-frame.ts). */
let framedPages = new Map<string, Promise<Framed | null>>();

/** The main column carrying the page at a page address as the request's caller may read it, or null (ui-page-view.ts). */
export type PageReader = (path: string) => string | null | Promise<string | null>;

/** Called by the compiled binary's entry with `name → embedded file path` (null: from source again). */
export function embedUi(files: Record<string, string> | null): void {
  embedded = files;
  loading = null;
  pageAssets = null;
  framedPages = new Map();
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

const typeOf = (name: string) => TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream";

/**
 * The binary's files are served straight from the executable, each text file as the gzipped
 * copy the build embedded (only that copy: a smaller binary; the rare client that does not take
 * gzip gets it unzipped): nothing is read into memory or compressed here.
 */
function embeddedAssets(files: Record<string, string>): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const key of Object.keys(files)) {
    const name = key.endsWith(".gz") ? key.slice(0, -3) : key;
    if (assets.has(name)) continue;
    const [plain, gz] = [files[name], files[`${name}.gz`]];
    assets.set(name, { body: plain ? Bun.file(plain) : null, type: typeOf(name), gzip: gz ? Bun.file(gz) : null });
  }
  return assets;
}

/** From source: bundled in memory, text compressed once. */
async function bundledAssets(): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>();
  for (const [name, blob] of (await (await import("./ui-bundle")).bundleUi()).files) {
    const type = typeOf(name);
    const text = /^(text|image\/svg|application\/json)/.test(type);
    assets.set(name, { body: blob, type, gzip: text ? new Blob([Bun.gzipSync(new Uint8Array(await blob.arrayBuffer()))]) : null });
  }
  return assets;
}

async function load(): Promise<Map<string, Asset>> {
  return embedded ? embeddedAssets(embedded) : bundledAssets();
}

/** The UI's files, loaded (or bundled) once per process. A failed bundle is retried next time. */
export function uiAssets(): Promise<Map<string, Asset>> {
  loading ??= load().catch((err) => {
    loading = null;
    pageAssets = null;
    framedPages = new Map();
    throw err;
  });
  return loading;
}

/**
 * The page's Link header (ui-preload.ts, loaded with the first page asked for: the server
 * listens without it). The assets' part is read from index.html once per bundle.
 */
async function pageLinkHeader(path: string, page: Asset): Promise<string> {
  const { assetPreloads, firstViewLinkHeader, staticImports, treePreloads } = await import("./ui-preload");
  pageAssets ??= (async () => {
    const assets = await uiAssets();
    const tree = [...assets.keys()].find((n) => n.startsWith("PageTree-") && n.endsWith(".js"));
    const treeImports = tree ? staticImports(await assetText(assets.get(tree)!)) : [];
    return { page: assetPreloads(await assetText(page)), space: treePreloads([...assets.keys()], () => treeImports) };
  })();
  // The preloads only hasten the page: if its assets cannot be read, it is served without them.
  const assets = await pageAssets.catch(() => {
    pageAssets = null;
    return { page: [], space: [] };
  });
  return firstViewLinkHeader(path, assets.page, assets.space);
}

// arrayBuffer(): a from-source bundle's files are build artifacts, which have no bytes().
const assetText = async (asset: Asset) =>
  new TextDecoder().decode(asset.body ? await asset.body.arrayBuffer() : Bun.gunzipSync(await asset.gzip!.bytes()));

/** A framed page: as served to everyone with that theme, and its text for a page's own copy. */
interface Framed {
  asset: Asset;
  text: string;
}

/**
 * The app's page with the frame of a page view painted in it (ui-frame.ts), when this request
 * gets one; else the page as built. A page whose frame cannot be made is served as built. With
 * `readPage` (the main column with the page at this address, as its caller may read it,
 * ui-page-view.ts), the frame's main column carries the page: that copy is the caller's own (`personal`), made per request.
 */
async function pageFor(
  path: string,
  cookieHeader: string | null,
  page: Asset,
  readPage?: PageReader,
): Promise<{ asset: Asset; personal: boolean }> {
  const plain = { asset: page, personal: false };
  if (!cookieHeader?.includes("cairn_theme=")) return plain;
  const { frameTheme, framedPage, withMain } = await import("./ui-frame");
  const theme = frameTheme(path, cookieHeader);
  if (!theme) return plain;
  let framed = framedPages.get(theme);
  if (!framed) {
    framed = assetText(page).then((text) => {
      const html = framedPage(text, theme);
      return html === null
        ? null
        : {
            text: html,
            asset: { body: new Blob([html]), type: page.type, gzip: new Blob([Bun.gzipSync(new TextEncoder().encode(html))]) },
          };
    });
    framedPages.set(theme, framed);
  }
  const made = await framed.catch(() => null);
  if (!made) return plain;
  const main = readPage ? await readPage(path) : null;
  if (!main) return { asset: made.asset, personal: false };
  const html = new TextEncoder().encode(withMain(made.text, main));
  // Level 1: the page is made for one answer; its text compresses about as well either way.
  return { asset: { body: new Blob([html]), type: page.type, gzip: new Blob([Bun.gzipSync(html, { level: 1 })]) }, personal: true };
}

/** From source, bundles in the background (the server does at start, so the first visit is quick). */
export function warmUi(onError: (err: unknown) => void): void {
  if (!embedded) uiAssets().catch(onError);
}

/** Whether a GET of this path is the UI's: not the API, and either an asset or an app path. */
export function isUiPath(path: string): boolean {
  if (path === "/api" || path.startsWith("/api/")) return false;
  if (path.startsWith(ASSET_PREFIX)) return true;
  // The last segment has no extension: an app route (/s/DOCS/p/…), not a missing file.
  return !/\.[A-Za-z0-9]+$/.test(path.slice(path.lastIndexOf("/") + 1));
}

const OWN_IMAGES = "img-src 'self' data: blob:";

/**
 * The policy of the UI's page: the usual one, with images from other sites as the instance's
 * image policy allows (`imageSources`, content/image-hosts.ts). Assets are no documents, so
 * theirs stays the usual one.
 */
export function uiPagePolicy(imageSources: string): string {
  const usual = SECURITY_HEADERS["content-security-policy"]!;
  if (!usual.includes(OWN_IMAGES)) throw new Error("the usual policy's img-src changed: update uiPagePolicy");
  return usual.replace(OWN_IMAGES, `img-src ${imageSources}`);
}

/**
 * The answer for a UI path, or null when there is no such file (the caller answers 404).
 * `imageSources`: the `img-src` sources of the page (the app's own images by default);
 * `cookieHeader`: the request's cookies, which say whether a page view gets its frame painted
 * in the page (ui-frame.ts); `readPage`: the page of a page address, for that frame to carry it.
 */
export async function uiResponse(
  path: string,
  acceptEncoding: string | null,
  imageSources?: string,
  cookieHeader: string | null = null,
  readPage?: PageReader,
): Promise<Response | null> {
  const assets = await uiAssets();
  const isAsset = path.startsWith(ASSET_PREFIX);
  const built = assets.get(isAsset ? path.slice(ASSET_PREFIX.length) : "index.html");
  if (!built) return null;
  const { asset, personal } = isAsset ? { asset: built, personal: false } : await pageFor(path, cookieHeader, built, readPage);
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    ...(!isAsset && imageSources ? { "content-security-policy": uiPagePolicy(imageSources) } : {}),
    // The first view's answers, started by the browser with the page (ui-preload.ts).
    ...(!isAsset ? { link: await pageLinkHeader(path, built) } : {}),
    "content-type": asset.type,
    // Asset names carry a hash of their content; the page itself is checked every time, and a
    // page carrying a page's text (ui-frame.ts) is the caller's alone and never stored.
    "cache-control": isAsset ? "public, max-age=31536000, immutable" : personal ? "private, no-store" : "no-cache",
    // The page differs with the cookies (its frame, ui-frame.ts); an asset does not.
    vary: isAsset ? "accept-encoding" : "accept-encoding, cookie",
  };
  if (asset.gzip && /\bgzip\b/.test(acceptEncoding ?? ""))
    return new Response(asset.gzip, { headers: { ...headers, "content-encoding": "gzip" } });
  return new Response(asset.body ?? Bun.gunzipSync(await asset.gzip!.bytes()), { headers });
}
