/**
 * A page as one self-contained HTML file (the HTML export, and what the PDF export prints): the
 * reading view's elements and styles (light and dark by the reader's system), the page's images
 * inlined as data: URLs up to a cap, links made absolute, no script, and a Content-Security-
 * Policy that lets nothing but those images load (a file opened from disk runs nothing).
 */
import type { JSONContent } from "@tiptap/core";
import { escapeHtml, documentHtml } from "../content/html";
import { readingStyles } from "../content/reading-styles";

/** One image up to 2 MB, 20 MB in all per file; larger ones stay links. */
export const INLINE_IMAGE_MAX = 2 * 1024 * 1024;
export const INLINE_TOTAL_MAX = 20 * 1024 * 1024;

/** Only the image types the reading view shows inline (never SVG: it can carry script). */
export const INLINE_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

export const FILE_CSP = "default-src 'none'; img-src data: https: http:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/** The file's own frame around `.prose`: a centred column, as in the reading view. */
const FRAME = `
html { background: var(--bg); }
body { margin: 0; color: var(--text); background: var(--bg); font-family: var(--font-sans); -webkit-text-size-adjust: 100%; }
main { max-width: 46rem; margin: 0 auto; padding: 40px 24px 64px; }
main.full-width { max-width: none; }
h1.page-title { font-size: 2rem; line-height: 1.25; margin: 0 0 24px; font-weight: 700; letter-spacing: -0.015em; overflow-wrap: anywhere; }
@media print { main { padding: 0; max-width: none; } .prose pre, .prose .tableWrapper { overflow: visible; white-space: pre-wrap; } }
`;

export interface HtmlFileInput {
  title: string;
  emoji: string | null;
  fullWidth: boolean;
  doc: JSONContent;
  /** The instance's address: relative links, images and attachment links become absolute. */
  baseUrl: string | null;
  /** Image sources already inlined: stored src → data: URL. */
  inlined: Map<string, string>;
  mentionName: (id: string, label: string | null) => string;
  /** A page link's target as the exporting person sees it (relative href), or null. */
  pageLink?: (pageId: string) => { title: string; href: string } | null;
}

const absolute = (url: string, base: string | null) => (base && url.startsWith("/") && !url.startsWith("//") ? base + url : url);

export function pageHtmlFile(input: HtmlFileInput): string {
  const { baseUrl } = input;
  const body = documentHtml(input.doc, {
    pageHref: (href) => absolute(href, baseUrl),
    imageSrc: (src) => input.inlined.get(src) ?? absolute(src, baseUrl),
    attachmentHref: (id) => absolute(`/api/attachments/${encodeURIComponent(id)}/download`, baseUrl),
    mentionName: input.mentionName,
    pageLink: (id) => {
      const target = input.pageLink?.(id) ?? null;
      return target && { title: target.title, href: absolute(target.href, baseUrl) };
    },
  });
  const title = input.title.trim() || "Untitled";
  const heading = `${input.emoji ? `${escapeHtml(input.emoji)} ` : ""}${escapeHtml(title)}`;
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${FILE_CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    '<meta name="generator" content="Cairn">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>\n${readingStyles()}\n${FRAME}</style>`,
    "</head>",
    "<body>",
    `<main${input.fullWidth ? ' class="full-width"' : ""}>`,
    `<h1 class="page-title">${heading}</h1>`,
    `<div class="prose">${body}</div>`,
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/** The image sources of a document (each once, in order). */
export function imageSources(doc: JSONContent): string[] {
  const found = new Set<string>();
  const visit = (node: JSONContent) => {
    if (node.type === "image" && typeof node.attrs?.src === "string") found.add(node.attrs.src);
    node.content?.forEach(visit);
  };
  visit(doc);
  return [...found];
}
