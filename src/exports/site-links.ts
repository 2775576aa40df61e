/**
 * Links and files inside the static site's pages, rewritten for reading from disk:
 * - a link to an exported page (`/p/<id>`, `/s/KEY/p/<id>-slug`, or the same on the instance's
 *   base URL) becomes the relative path of its `index.html` (the fragment kept); `/s/KEY` the
 *   front page. A page link node (content/page-links.ts) shows the page's title as the export's
 *   reader sees it (`titleOf`) and links the same way; a page that reader may not read shows
 *   as UNSEEN_PAGE, never its title;
 * - an image or attachment of an exported page (`/api/attachments/<id>/view|download`) becomes
 *   its file in `_files/`; an attachment block's link to a file renamed so it cannot render
 *   (site-files.ts) carries the original name in `download`;
 * - anything else of the instance (a page left out of the export, another space, an attachment of
 *   a page left out) points at the instance when its base URL is configured (CAIRN_BASE_URL),
 *   where a reader with access can follow it; without one it loses its link (the text stays) and
 *   an image is not shown, so nothing from the export points at a path that is not there;
 * - links and images on the web stay as they are.
 */
import type { HtmlOptions } from "../content/html";
import { pageHref, pageOfHref } from "../content/page-links";
import { linkTarget } from "../content/urls";
import { hrefTo, rootPrefix } from "./site-paths";

export interface SiteLinks {
  spaceKey: string;
  /** The instance's public URL without a trailing slash, or null. */
  baseUrl: string | null;
  /** Exported page id → its folder ("guides/install/"). */
  pageDirs: Map<string, string>;
  /** Exported attachment id → its file in the zip ("_files/<sha256>/<name>"). */
  files: Map<string, string>;
  /** Exported attachment id → its own name, when its file was renamed so it cannot render (site-files.ts). */
  downloads: Map<string, string>;
  /** A linked page's current title if the export's reader may read it, else null. */
  titleOf: (pageId: string) => string | null;
}

const SPACE = /^\/s\/([^/?#]+)\/?(?:[?#].*)?$/;
const ATTACHMENT = /^\/api\/attachments\/([^/?#]+)\/(?:view|download)\/?(?:[?#].*)?$/;

/** The path part of a link to this instance ("/s/…"), or null for anything else. */
function instancePath(url: string, baseUrl: string | null): string | null {
  const u = url.trim();
  // `//host`, `/\host` and the like name another host (content/urls.ts), never a path of ours.
  const target = linkTarget(u);
  if (target?.kind === "internal" && target.href.startsWith("/")) return target.href;
  if (baseUrl && u.toLowerCase().startsWith(baseUrl.toLowerCase() + "/")) return u.slice(baseUrl.length);
  return null;
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** The file for an attachment URL of the instance, relative to a page at `depth`; null when it is not one. */
function attachmentFile(links: SiteLinks, path: string, depth: number): string | null | undefined {
  const m = ATTACHMENT.exec(path);
  if (!m) return undefined;
  const file = links.files.get(decode(m[1]!));
  return file ? rootPrefix(depth) + encodeFile(file) : null;
}

const encodeFile = (file: string) => file.split("/").map(encodeURIComponent).join("/");

/** documentHtml's options for a page at `depth` folders below the root. */
export function siteHtmlOptions(links: SiteLinks, depth: number): HtmlOptions {
  const elsewhere = (path: string) => (links.baseUrl ? links.baseUrl + path : "");
  return {
    pageHref(href) {
      const path = instancePath(href, links.baseUrl);
      if (path === null) return href;
      const page = pageOfHref(path);
      if (page) {
        // Ids are unique across spaces: a page of the export is found whatever key the link names.
        const dir = links.pageDirs.get(page.pageId);
        return dir !== undefined ? hrefTo(depth, dir) + page.fragment : elsewhere(path);
      }
      const space = SPACE.exec(path);
      if (space && decode(space[1]!).toUpperCase() === links.spaceKey) return `${rootPrefix(depth)}index.html`;
      const file = attachmentFile(links, path, depth);
      if (file) return file;
      return elsewhere(path);
    },
    imageSrc(src) {
      const path = instancePath(src, links.baseUrl);
      if (path === null) return src;
      return attachmentFile(links, path, depth) || elsewhere(path);
    },
    pageLink(pageId) {
      const title = links.titleOf(pageId);
      if (title === null) return null;
      const dir = links.pageDirs.get(pageId);
      return { title, href: dir !== undefined ? hrefTo(depth, dir) : elsewhere(pageHref(pageId)) || null };
    },
    attachmentHref(id) {
      const file = links.files.get(id);
      return file ? rootPrefix(depth) + encodeFile(file) : "";
    },
    attachmentDownload: (id) => links.downloads.get(id) ?? null,
  };
}
