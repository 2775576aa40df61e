/**
 * Links between pages, by page id. Two forms reach a page:
 * - the `pageLink` node (nodes/page-link.ts): an inline link that shows the page's CURRENT title,
 *   what `[[`, the `@` menu, "/ Link to page" and a pasted page address insert;
 * - a link mark over the author's own words whose href is `/p/<id>` (optionally `#fragment`),
 *   what the link dialog writes on selected text and what imports write for links between pages.
 * Neither holds a host name or a space key, so both survive a new host name, a rename and a move
 * to another space. Older hrefs of the form `/s/KEY/p/<id>-slug` count as page links too.
 *
 * This module is the one place that says which page ids a document links to (the backlinks
 * table, pages/store/links.ts, is written from it) and how a pasted address of this wiki names a page.
 */

/** Our page ids are UUIDs. */
export const PAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
/** `/p/<id>` or `/s/KEY/p/<id>-slug`, then an optional sub-path, query and fragment. */
const PAGE_PATH = new RegExp(`^(?:/s/[^/?#]+)?/p/(${ID})(?:-[^/?#]*)?(/[^?#]*)?(\\?[^#]*)?(#.*)?$`);

/** The stored href of a link to a page (and a fragment within it). */
export const pageHref = (pageId: string, fragment = "") => `/p/${pageId.toLowerCase()}${fragment}`;

/**
 * The page a relative link on this wiki points at, with its fragment; null for anything else
 * (an absolute URL, another path). A sub-path (`/edit`, `/history/3`) is not the page itself.
 */
export function pageOfHref(href: unknown): { pageId: string; fragment: string } | null {
  if (typeof href !== "string") return null;
  const m = PAGE_PATH.exec(href.trim());
  if (!m || m[2]) return null;
  return { pageId: m[1]!.toLowerCase(), fragment: m[4] ?? "" };
}

/**
 * The page an address pasted into the editor names, on ANY host (the wiki is reached by several
 * names: localhost, a LAN address, a Tailscale name), or null. Only the path is read: a page
 * address of another Cairn would become a link to a page of this one only if it named one of
 * its ids, which (UUIDs) it does not.
 */
export function pageOfPastedUrl(text: string): { pageId: string; fragment: string } | null {
  const t = text.trim();
  if (!t || /\s/.test(t)) return null;
  let url: URL;
  try {
    url = new URL(t);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return pageOfHref(url.pathname + url.search + url.hash);
}

interface Json {
  type?: unknown;
  attrs?: Record<string, unknown>;
  content?: unknown;
  marks?: unknown;
}

/** Every page id a document links to (pageLink nodes and page hrefs), each once, in order. */
export function linkedPageIds(doc: unknown): string[] {
  const found = new Set<string>();
  const stack: unknown[] = [doc];
  while (stack.length) {
    const node = stack.pop() as Json | null;
    if (!node || typeof node !== "object") continue;
    if (node.type === "pageLink" && typeof node.attrs?.pageId === "string" && PAGE_ID.test(node.attrs.pageId))
      found.add(node.attrs.pageId.toLowerCase());
    if (Array.isArray(node.marks)) {
      for (const mark of node.marks as Json[]) {
        if (mark?.type !== "link") continue;
        const page = pageOfHref(mark.attrs?.href);
        if (page) found.add(page.pageId);
      }
    }
    if (Array.isArray(node.content)) for (let i = node.content.length - 1; i >= 0; i--) stack.push(node.content[i]);
  }
  return [...found];
}

/** What a reader is told in place of the title of a page they may not read (or that is gone). */
export const UNSEEN_PAGE = "a page you cannot see";
