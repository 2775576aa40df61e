/**
 * The HTML of the static site's pages: the app's frame (sidebar with the space and the tree, top
 * bar with breadcrumbs, page header) around the reading view's document (content/html.ts).
 * The tree itself is drawn by _site/site.js from _site/tree.js, which every page shares (10,000
 * pages must not each carry a 10,000-row tree); in the HTML, each page lists its ancestors,
 * itself and its children as plain links, so it is navigable without script. Every value is
 * escaped; the only scripts are the site's own files, and a CSP meta tag (SITE_CSP) holds every
 * page to that.
 */
import { escapeHtml as esc } from "../content/html";
import { hrefTo, rootPrefix, type SitePage } from "./site-paths";

export interface SiteSpace {
  key: string;
  name: string;
  description: string;
  /** 1 Emoji: iconValue is shown; otherwise the name's first letter. */
  iconKind: number;
  iconValue: string | null;
}

export interface PageBody {
  html: string;
  updatedAt: string;
  fullWidth: boolean;
  labels: string[];
}

const SITE_VERSION_TAG = `<meta name="generator" content="Cairn">`;

/**
 * Every page's Content-Security-Policy, as a meta tag since a static host sends no headers of
 * ours. Script only from the site's own files (`_site/site.js`, `tree.js`, the search index it
 * adds; 'self' also matches them when the folder is opened from disk in Chromium), never inline;
 * no objects, frames or requests; images and media from the site's files or data: (remote images
 * stay out, as in the app); inline styles (tables' widths) and the site's stylesheet. No
 * frame-ancestors: a meta tag cannot carry it.
 */
export const SITE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src " +
  "'self'; font-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'";

function spaceIcon(space: SiteSpace): string {
  if (space.iconKind === 1 && space.iconValue)
    return `<span class="space-icon space-icon-emoji" aria-hidden="true">${esc(space.iconValue)}</span>`;
  const letter = Array.from(space.name.trim())[0]?.toUpperCase() ?? "?";
  return `<span class="space-icon" aria-hidden="true">${esc(letter)}</span>`;
}

const titleWithEmoji = (p: SitePage) => (p.emoji ? `${esc(p.emoji)} ${esc(p.title)}` : esc(p.title));

/** The ancestors of a page, top first. */
function ancestorsOf(pages: SitePage[], page: SitePage): SitePage[] {
  const out: SitePage[] = [];
  for (let at = page.parent; at >= 0; at = pages[at]!.parent) out.unshift(pages[at]!);
  return out;
}

/** The sidebar's plain list: the top level (on the front page), or the branch down to the page and its children. */
function staticTree(pages: SitePage[], tops: number[], page: SitePage | null, depth: number): string {
  const link = (p: SitePage) => `<a href="${hrefTo(depth, p.dir)}"${p === page ? ' aria-current="page"' : ""}>${titleWithEmoji(p)}</a>`;
  if (!page) return `<ul class="static-tree">${tops.map((i) => `<li>${link(pages[i]!)}</li>`).join("")}</ul>`;
  const kids = page.children.length ? `<ul>${page.children.map((i) => `<li>${link(pages[i]!)}</li>`).join("")}</ul>` : "";
  let inner = `<li>${link(page)}${kids}</li>`;
  for (const a of ancestorsOf(pages, page).reverse()) inner = `<li>${link(a)}<ul>${inner}</ul></li>`;
  return `<ul class="static-tree">${inner}</ul>`;
}

function frame(opts: {
  space: SiteSpace;
  title: string;
  depth: number;
  pageIndex: number;
  tree: string;
  crumbs: string;
  main: string;
  fullWidth: boolean;
}): string {
  const root = rootPrefix(opts.depth);
  const home = `${root}index.html`;
  return (
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" ` +
    `content="${SITE_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" ` +
    `content="light dark">
${SITE_VERSION_TAG}
<title>${esc(opts.title)}</title>
<link rel="stylesheet" ` +
    `href="${root}_site/style.css">
</head>
<body data-page="${opts.pageIndex}" data-root="${root}">
<a class="skip-link" ` +
    `href="#content">Skip to content</a>
<input type="checkbox" id="nav-toggle" class="nav-toggle" aria-label="Show the pages">
<aside ` +
    `class="sidebar" aria-label="Space">
<div class="sidebar-head"><a class="space-link" href="${home}">${spaceIcon(opts.space)}<span ` +
    `class="name">${esc(opts.space.name)}</span></a></div>
<div class="site-search" id="site-search" role="search"></div>
<nav ` +
    `class="site-tree" id="site-tree" aria-label="Pages">${opts.tree}</nav>
</aside>
<label for="nav-toggle" class="drawer-overlay" ` +
    `aria-hidden="true"></label>
<div class="shell-body">
<header class="topbar">
<label for="nav-toggle" class="drawer-button" ` +
    `title="Pages"><svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" ` +
    `stroke-linecap="round" aria-hidden="true"><path d="M4 6h16M4 12h16M4 18h16"/></svg><span ` +
    `class="visually-hidden">Pages</span></label>
<nav class="breadcrumbs" ` +
    `aria-label="Breadcrumbs">${opts.crumbs}</nav>
</header>
<main id="content" class="main-column ` +
    `page${opts.fullWidth ? " full-width" : ""}">
${opts.main}
</main>
</div>
<script src="${root}_site/tree.js"></script>
<script ` +
    `src="${root}_site/site.js"></script>
</body>
</html>
`
  );
}

const SEP = `<span class="crumb-sep" aria-hidden="true">/</span>`;

/** One exported page: `pages[index]` with its rendered document. */
export function pageDocument(space: SiteSpace, pages: SitePage[], tops: number[], page: SitePage, body: PageBody): string {
  const depth = page.depth;
  const crumbs = [
    `<a href="${rootPrefix(depth)}index.html">${esc(space.name)}</a>`,
    ...ancestorsOf(pages, page).map((a) => `<a href="${hrefTo(depth, a.dir)}">${esc(a.title)}</a>`),
    `<span aria-current="page">${esc(page.title)}</span>`,
  ].join(SEP);
  const labels = body.labels.length
    ? `<ul class="page-labels" aria-label="Labels">${body.labels.map((l) => `<li class="label-chip">${esc(l)}</li>`).join("")}</ul>`
    : "";
  const emoji = page.emoji ? `<span class="page-emoji" aria-hidden="true">${esc(page.emoji)}</span>` : "";
  const main = `<header class="page-head">
<h1 class="page-title">${emoji}${esc(page.title)}</h1>
<p class="page-meta">Last updated <time datetime="${esc(body.updatedAt)}">${esc(body.updatedAt.slice(0, 10))}</time></p>${labels}
</header>
<div class="prose">${body.html}</div>`;
  return frame({
    space,
    title: `${page.title} · ${space.name}`,
    depth,
    pageIndex: page.index,
    tree: staticTree(pages, tops, page, depth),
    crumbs,
    main,
    fullWidth: body.fullWidth,
  });
}

/** The root index.html: the space's name, description and its top-level pages. */
export function frontDocument(space: SiteSpace, pages: SitePage[], tops: number[], exportedAt: string | null): string {
  const list = tops.length
    ? `<ul>${tops.map((i) => `<li><a href="${hrefTo(0, pages[i]!.dir)}">${titleWithEmoji(pages[i]!)}</a></li>`).join("")}</ul>`
    : `<p class="page-meta">This space has no pages.</p>`;
  const main =
    `<header class="page-head">
<h1 ` +
    `class="page-title">${esc(space.name)}</h1>
${space.description ? `<p class="page-meta">${esc(space.description)}</p>` : ""}
</header>` +
    `
<section class="child-pages" aria-label="Pages"><h2>Pages</h2>${list}</section>
<p class="site-foot">${pages.length} ` +
    `${pages.length === 1 ? "page" : "pages"} exported from ` +
    `Cairn${exportedAt ? ` (space ${esc(space.key)}, last change ${esc(exportedAt.slice(0, 10))})` : ""}.</p>`;
  return frame({
    space,
    title: space.name,
    depth: 0,
    pageIndex: -1,
    tree: staticTree(pages, tops, null, 0),
    crumbs: `<span aria-current="page">${esc(space.name)}</span>`,
    main,
    fullWidth: false,
  });
}

/** _site/tree.js: every page's title, emoji, folder and parent, in tree order. */
export function treeScript(pages: SitePage[]): string {
  const rows = pages.map((p) => JSON.stringify([p.title, p.emoji, p.dir, p.parent]));
  return `window.CAIRN_TREE={"v":1,"pages":[\n${rows.join(",\n")}\n]};\n`;
}
