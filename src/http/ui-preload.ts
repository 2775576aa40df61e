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
  for (const m of indexHtml.matchAll(/<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+)"/g))
    links.push(`<${m[1]}>; rel=preload; as=style; crossorigin=anonymous`);
  for (const m of indexHtml.matchAll(/<script type="module"[^>]*src="(\/assets\/[^"]+)"/g)) links.push(`<${m[1]}>; rel=modulepreload`);
  return links;
}

/**
 * The sidebar tree's chunk (`PageTree-*.js`) and the chunks it imports, as module preloads: a
 * view in a space draws the tree just after its first paint (web lib/first-paint.ts), and only
 * then imports it, so that evaluating it never comes between the page and the screen; fetched
 * with the page, it is there when asked for. `files`: the bundle's file names and a way to read
 * a script's text.
 */
export function treePreloads(names: string[], importsOf: (name: string) => string[]): string[] {
  const tree = names.find((n) => /^PageTree-[\w-]+\.js$/.test(n));
  if (!tree) return [];
  const wanted = [tree, ...importsOf(tree).filter((n) => n !== tree && names.includes(n))];
  return wanted.map((n) => `</assets/${n}>; rel=modulepreload`);
}

/** The chunks a script imports statically (Bun writes `from"/assets/<name>"`). */
export const staticImports = (script: string): string[] => [...script.matchAll(/\bfrom\s*"\/assets\/([\w.-]+\.js)"/g)].map((m) => m[1]);

/**
 * The Link header: the page's assets, then its first view's answers (fetch-mode preloads,
 * credentials as fetch() sends them), then for a view in a space the tree's code.
 */
export function firstViewLinkHeader(path: string, assets: string[], spaceAssets: string[] = []): string {
  const answers = firstViewRequests(path);
  const inSpace = answers.some((p) => p.startsWith("/api/spaces/"));
  const links = [...assets, ...answers.map((p) => `<${p}>; rel=preload; as=fetch; crossorigin=anonymous`), ...(inSpace ? spaceAssets : [])];
  return [...new Set(links)].join(", ");
}
