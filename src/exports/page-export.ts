/**
 * GET /api/pages/{id}/export?format=markdown|html|pdf: one page as a file. Reading it is reading
 * the page (getPageJson: the same access rules, the same 404 for what the caller may not see),
 * then the space's switch for the format (403 export_disabled). Mentions carry their person's
 * current name; the HTML (and so the PDF) inlines the images the caller may open.
 */
import type { JSONContent } from "@tiptap/core";
import { displayNamesOf } from "../users/store/accounts";
import { openAttachment } from "../attachments/service";
import { pageToMarkdown } from "../content/markdown-export";
import type { Core } from "../core";
import type { Caller } from "../identity/caller";
import { linkedPageIds } from "../content/page-links";
import { readableTitles, type LinkedPage } from "../pages/links";
import { getPageJson } from "../pages/service";
import { findPageMeta } from "../pages/store";
import { AppError, notFound } from "../platform/errors";
import { imageSources, INLINE_IMAGE_MAX, INLINE_IMAGE_TYPES, INLINE_TOTAL_MAX, pageHtmlFile } from "./page-html";
import { pdfPrinter } from "./pdf";

export const PAGE_EXPORT_FORMATS = ["markdown", "html", "pdf"] as const;
export type PageExportFormat = (typeof PAGE_EXPORT_FORMATS)[number];

const FILES = {
  markdown: { extension: "md", contentType: "text/markdown; charset=utf-8", switch: "exportMarkdown" },
  html: { extension: "html", contentType: "text/html; charset=utf-8", switch: "exportHtml" },
  pdf: { extension: "pdf", contentType: "application/pdf", switch: "exportPdf" },
} as const;

export interface PageFile {
  body: string | Uint8Array<ArrayBuffer>;
  contentType: string;
  filename: string;
}

interface ExportedPage {
  title: string;
  emoji: string | null;
  fullWidth: boolean;
  doc: JSONContent;
}

/** `baseUrl`: the instance's address for absolute links (the configured one, else the request's origin). */
export async function exportPage(
  core: Core,
  caller: Caller,
  id: string,
  format: PageExportFormat,
  baseUrl: string | null,
): Promise<PageFile> {
  const { json } = getPageJson(core, caller, id);
  const found = findPageMeta(core, id);
  if (!found) throw notFound("Page not found");
  const file = FILES[format];
  if (!found.space[file.switch]) {
    throw new AppError("export_disabled", {
      detail:
        `Export as ${format === "pdf" ? "PDF" : format === "html" ? "HTML" : "Markdown"} is switched off for ` +
        `this space; a space administrator can switch it on in the space's settings.`,
    });
  }
  const stored = JSON.parse(json) as { title: string; emoji: string | null; fullWidth: boolean; contentJson: string };
  const page: ExportedPage = {
    title: stored.title,
    emoji: stored.emoji,
    fullWidth: stored.fullWidth,
    doc: JSON.parse(stored.contentJson) as JSONContent,
  };
  const mentionName = currentNames(core, page.doc);
  const pageLink = linkTargets(core, caller, page.doc);
  const filename = `${fileStem(page.title)}.${file.extension}`;
  if (format === "markdown") {
    return { body: pageToMarkdown(page.title, page.doc, { baseUrl, mentionName, pageLink }), contentType: file.contentType, filename };
  }
  // Paper cannot be clicked: a PDF prints every expand open.
  const doc = format === "pdf" ? withExpandsOpen(page.doc) : page.doc;
  const html = pageHtmlFile({ ...page, doc, baseUrl, mentionName, pageLink, inlined: await inlineImages(core, caller, doc) });
  if (format === "html") return { body: html, contentType: file.contentType, filename };
  return { body: await pdfPrinter(core).print(html), contentType: file.contentType, filename };
}

/**
 * Page links show each page's current title as the exporting person may see it (content/html.ts's
 * pageLink), linked to the page on this instance: `/s/KEY/p/<id>`, made absolute with the rest of
 * the file's instance links (a lone file has no neighbours to link to relatively).
 */
function linkTargets(core: Core, caller: Caller, doc: JSONContent) {
  const ids = linkedPageIds(doc);
  const found = ids.length ? readableTitles(core, caller, ids) : new Map<string, LinkedPage>();
  return (id: string) => {
    const page = found.get(id.toLowerCase());
    return page ? { title: page.title, href: `/s/${encodeURIComponent(page.spaceKey)}/p/${page.id}` } : null;
  };
}

function withExpandsOpen(node: JSONContent): JSONContent {
  const content = node.content?.map(withExpandsOpen);
  const open = node.type === "details" ? { attrs: { ...node.attrs, open: true } } : {};
  return { ...node, ...open, ...(content ? { content } : {}) };
}

/**
 * A file name from the title that every system accepts: separators become "-", the characters
 * Windows refuses go (attachments/filenames.ts cleans it again for the header).
 */
export function fileStem(title: string): string {
  const stem = title
    .replace(/[/\\|]/g, "-")
    .replace(/[:*?"<>]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return stem || "Untitled";
}

/** A mention shows its person's name now (renamed since?), else the label stored with it. */
function currentNames(core: Core, doc: JSONContent): (id: string, label: string | null) => string {
  const ids = new Set<string>();
  const visit = (node: JSONContent) => {
    if (node.type === "mention" && typeof node.attrs?.id === "string") ids.add(node.attrs.id);
    node.content?.forEach(visit);
  };
  visit(doc);
  const names = ids.size ? displayNamesOf(core, [...ids]) : new Map<string, string>();
  return (id, label) => names.get(id) ?? label ?? id;
}

const OWN_IMAGE = /^\/api\/attachments\/([^/?#]+)\/(?:view|download)$/;

/**
 * The document's images that are attachments the caller may open, as data: URLs: each up to
 * INLINE_IMAGE_MAX, INLINE_TOTAL_MAX in all, PNG, JPEG, GIF or WebP. The rest stay links.
 */
async function inlineImages(core: Core, caller: Caller, doc: JSONContent): Promise<Map<string, string>> {
  const inlined = new Map<string, string>();
  let total = 0;
  for (const src of imageSources(doc)) {
    const id = OWN_IMAGE.exec(src)?.[1];
    if (!id) continue;
    let file: Awaited<ReturnType<typeof openAttachment>>;
    try {
      file = await openAttachment(core, caller, decodeURIComponent(id));
    } catch (error) {
      // Gone, or not the caller's to see: the image stays a link (which answers 404 to them too).
      if (error instanceof AppError && error.status === 404) continue;
      throw error;
    }
    const { size, contentType } = file.attachment;
    if (!INLINE_IMAGE_TYPES.has(contentType) || size > INLINE_IMAGE_MAX || total + size > INLINE_TOTAL_MAX) continue;
    total += size;
    inlined.set(src, `data:${contentType};base64,${Buffer.from(await file.blob.arrayBuffer()).toString("base64")}`);
  }
  return inlined;
}
