/**
 * What the app's page asks the browser to fetch before its script runs: the answers its first
 * view reads (src/web/app/first-view.ts asks for exactly these, the same way), as a Link header
 * of preloads. The browser starts them with the page and hands them to the app's own requests,
 * so the page's data is there when the script is. Only addresses: every answer is the API's
 * own, with its own checks (a page the caller may not read is the same 404 as before).
 */

const SPACE_KEY = /^[A-Za-z0-9_-]{1,64}$/;
const PAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EVERY_VIEW = ["/api/auth/me", "/api/instance"];

/** The API paths the first view of `path` reads (the app's own addresses: /s/KEY/p/<id>-<slug>…). */
export function firstViewRequests(path: string): string[] {
  const wanted = [...EVERY_VIEW];
  const m = /^\/s\/([^/]+)(?:\/p\/([^/]+))?/.exec(path);
  if (m && SPACE_KEY.test(m[1])) {
    wanted.push(`/api/spaces/${m[1]}`);
    const id = m[2]?.slice(0, 36);
    if (id && PAGE_ID.test(id)) wanted.push(`/api/pages/${id}`);
  }
  return wanted;
}

/**
 * The page's own stylesheet and script as preloads (`index.html`'s text): named first in the
 * header so that the browser asks for them before the API answers, which the script needs
 * no sooner than itself. Both carry `crossorigin` in the page, so their preloads do too.
 */
export function assetPreloads(indexHtml: string): string[] {
  const links: string[] = [];
  for (const m of indexHtml.matchAll(/<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+)"/g)) links.push(`<${m[1]}>; rel=preload; as=style; crossorigin=anonymous`);
  for (const m of indexHtml.matchAll(/<script type="module"[^>]*src="(\/assets\/[^"]+)"/g)) links.push(`<${m[1]}>; rel=modulepreload`);
  return links;
}

/** The Link header: the page's assets, then its first view's answers (fetch-mode preloads, credentials as fetch() sends them). */
export function firstViewLinkHeader(path: string, assets: string[]): string {
  return [...assets, ...firstViewRequests(path).map((p) => `<${p}>; rel=preload; as=fetch; crossorigin=anonymous`)].join(", ");
}
