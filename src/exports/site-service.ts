/**
 * GET /api/spaces/{key}/export/site: the space as a static website in a zip, to open from disk
 * or put on any web server. What is in it is what its audience may read, decided once at the
 * start by the access rules (pages/tree.ts's tree for that caller: published pages, View
 * restrictions taking their subtrees): `me` (the caller) or `anonymous` (an anonymous reader of
 * the public space). Attachments come only from the pages exported.
 *
 * Layout: `index.html` (the space's front page), `<folders mirroring the tree>/index.html`,
 * `_files/<sha256>/<filename>` (each file once, written so it cannot run script: site-files.ts),
 * `_site/style.css`, `_site/site.js` (tree and search), `_site/tree.js`, `_site/search-index.js`
 * (site-search.ts). Every page carries a Content-Security-Policy (site-layout.ts). Streamed:
 * one page's document is read, drawn and handed to the zip at a time (site-source.ts), so memory
 * stays flat whatever the size of the space; entries come in a fixed order, so the same content
 * gives the same bytes.
 */
import { anonymous, callerId, type Caller } from "../identity/caller";
import type { Core } from "../core";
import { documentHtml } from "../content/html";
import { readingStyles } from "../content/reading-styles";
import { isPubliclyReadable, requireReadableSpace } from "../access/spaces";
import { readableTitles } from "../pages/links";
import { pageTreeJson } from "../pages/tree";
import { findSpaceByKey } from "../spaces/service";
import { AppError, invalid } from "../platform/errors";
import { blobStore } from "../platform/blobstore";
import { startProgress } from "../platform/progress";
import { zipStream, type ZipSink } from "../platform/zip/write";
import siteCss from "./site.css" with { type: "text" };
import siteClient from "./site-client.js" with { type: "text" };
import { frontDocument, pageDocument, treeScript, type SiteSpace } from "./site-layout";
import { siteHtmlOptions, type SiteLinks } from "./site-links";
import { sanitisedSvg, siteFile } from "./site-files";
import { fileName, planSite, type SitePage, type TreeInput } from "./site-paths";
import { SearchIndexBuilder } from "./site-search";
import { attachmentsOfSpace, labelsOfSpace, pageForSite } from "./store/site-source";
import { reportingProgress } from "./streamed-export";

export type SiteAudience = "anonymous" | "me";

export interface SiteExport {
  filename: string;
  stream: ReadableStream<Uint8Array>;
}

const NOT_PUBLIC = "the space is not public: an anonymous reader sees nothing";
/** Kept as they are in the zip: compressing them again gains nothing. */
const COMPRESSED =
  /^(image\/(png|jpeg|gif|webp|avif)|video\/|audio\/|application\/(zip|gzip|pdf|x-7z-compressed|x-rar-compressed|x-bzip2|x-xz|zstd))/;
/** Hand the event loop back to other requests this often while a big space is drawn. */
const YIELD_EVERY_MS = 20;
/**
 * Each page leaves a few hundred KB of garbage (its row, parsed document, HTML, deflate buffers)
 * that JavaScriptCore collects only when it next needs room, so resident memory climbs although
 * what the export keeps grows by ~13 MB over 10,000 pages. A full collection every 500 pages
 * (~20 ms each) kept the built server's growth at 90–92 MB over 10,000 pages, against 97–106 MB
 * with a collection asked for (not waited on) every 1,000 (bun scripts/bench/export-import.ts).
 */
const GC_EVERY_PAGES = 500;

/** Checks what the caller asked for and answers the zip's stream (work starts as it is read). */
export function exportSite(core: Core, caller: Caller, key: string, opts: { audience?: SiteAudience; progress?: string } = {}): SiteExport {
  const space = requireReadableSpace(core, caller, findSpaceByKey(core, key));
  if (!space.exportSite)
    throw new AppError("export_disabled", {
      detail: "A space administrator can switch the static site export on in the space's settings.",
    });
  const audience = opts.audience ?? "me";
  if (audience === "anonymous" && !isPubliclyReadable(core, space)) throw invalid("audience", NOT_PUBLIC);
  const reader: Caller = audience === "anonymous" ? anonymous(caller.ip) : caller;
  const progress = startProgress(opts.progress, callerId(caller), { pages: 70, files: 25, index: 5 });

  const pages = planSite(JSON.parse(pageTreeJson(core, reader, space.id)) as TreeInput[]);
  const exported = new Set(pages.map((p) => p.id));
  const attachments = attachmentsOfSpace(core, space.id).filter((a) => exported.has(a.pageId));
  // Titles of exported pages are known; any other page linked to is looked up as the reader sees it, once.
  const exportedTitles = new Map(pages.map((p) => [p.id, p.title]));
  const otherTitles = new Map<string, string | null>();
  const titleOf = (id: string) => {
    const known = exportedTitles.get(id);
    if (known !== undefined) return known;
    if (!otherTitles.has(id)) otherTitles.set(id, readableTitles(core, reader, [id]).get(id)?.title ?? null);
    return otherTitles.get(id)!;
  };
  const links: SiteLinks = {
    spaceKey: space.key,
    baseUrl: core.config.baseUrl,
    pageDirs: new Map(pages.map((p) => [p.id, p.dir])),
    files: new Map(),
    downloads: new Map(),
    titleOf,
  };
  const store = blobStore(core);
  const files = new Map<string, { path: string; contentType: string; sanitise: boolean; renamed: boolean }>();
  /** Names each file (an SVG is read to learn whether the sanitiser takes it) before any page links to it. */
  const planFiles = async () => {
    for (const a of attachments) {
      let file = files.get(a.sha256);
      if (!file) {
        const written = await siteFile(fileName(a.filename), a.contentType, () => store.open(a.sha256));
        file = {
          path: `_files/${a.sha256}/${written.name}`,
          contentType: a.contentType,
          sanitise: written.sanitise,
          renamed: written.download !== null,
        };
        files.set(a.sha256, file);
      }
      links.files.set(a.id, file.path);
      // Each attachment downloads under its own name (two may share one stored file).
      if (file.renamed) links.downloads.set(a.id, fileName(a.filename));
    }
  };
  const labels = labelsOfSpace(core, space.id);
  const siteSpace: SiteSpace = {
    key: space.key,
    name: space.name,
    description: space.description,
    iconKind: space.iconKind,
    iconValue: space.iconValue,
  };

  const fill = async (zip: ZipSink) => {
    await planFiles();
    const tops = pages.filter((p) => p.parent < 0).map((p) => p.index);
    const search = new SearchIndexBuilder();
    let lastChange = space.updatedAt;
    await zip.add("_site/style.css", `${readingStyles()}\n${siteCss as unknown as string}`);
    await zip.add("_site/site.js", siteClient);
    await zip.add("_site/tree.js", treeScript(pages));
    progress.phase("pages", pages.length);
    let pausedAt = performance.now();
    for (const page of pages) {
      const row = pageForSite(core, page.id);
      // A page deleted while the export runs is still in the tree already written: it is kept, empty.
      const body = row ? documentHtml(JSON.parse(row.contentJson), siteHtmlOptions(links, page.depth)) : "";
      if (row && row.updatedAt > lastChange) lastChange = row.updatedAt;
      search.add(page.index, page.title, row?.plainText ?? "");
      const html = pageDocument(siteSpace, pages, tops, page, {
        html: body,
        updatedAt: row?.updatedAt ?? "",
        fullWidth: row?.fullWidth ?? false,
        labels: labels.get(page.id) ?? [],
      });
      await zip.add(`${page.dir}index.html`, html);
      progress.step();
      if (page.index % GC_EVERY_PAGES === GC_EVERY_PAGES - 1) Bun.gc(true);
      if (performance.now() - pausedAt > YIELD_EVERY_MS) {
        await new Promise((r) => setTimeout(r, 0));
        pausedAt = performance.now();
      }
    }
    await zip.add("index.html", frontDocument(siteSpace, pages, tops, lastChange));
    progress.phase("files", files.size);
    for (const [sha256, file] of files) {
      const blob = await store.open(sha256);
      // A file missing from the store (damaged data) is left out; its links then lead nowhere.
      if (blob && file.sanitise) {
        // It passed the sanitiser when planned, and a stored file never changes (its name is its hash).
        const svg = await sanitisedSvg(blob);
        if (svg !== null) await zip.add(file.path, svg);
      } else if (blob) await zip.add(file.path, blob, { store: COMPRESSED.test(file.contentType) });
      progress.step();
    }
    progress.phase("index", 1);
    // As a Blob, which the zip deflates in slices, rather than deflating the whole index at once.
    await zip.add("_site/search-index.js", new Blob([search.script()]));
    progress.step();
  };
  return { filename: `${space.key}-site.zip`, stream: reportingProgress(zipStream(fill), progress, core, "site export") };
}

export type { SitePage };
