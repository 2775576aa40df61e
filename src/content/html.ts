/**
 * A stored document as HTML, for files that leave the server (the HTML and PDF page exports,
 * the static site). Each node's and mark's element, attributes and class come from the table in
 * elements.ts, which the reading view's React mapping (src/web/features/page/render/nodes.tsx and
 * marks.tsx) reads too, so reading.css gives an export the reading view's look; html.test.ts
 * compares the two on a document with every block.
 * A string renderer, not React: the server imports nothing of the web. Every text and attribute
 * is escaped, no script is ever written, and a URL with a scheme outside urls.ts's lists keeps
 * its text but loses its link (or, for an image, is dropped), as in the reading view.
 * Node types it does not know show their content; unknown marks, their text.
 */
import {
  codeLanguage,
  MARK_ELEMENTS,
  mentionText,
  NODE_ELEMENTS,
  PANEL_BODY,
  panelKind,
  styleText,
  TABLE,
  type ElementAttrs,
  type ElementSpec,
} from "./elements";
import { UNSEEN_PAGE } from "./page-links";
import { taskName } from "./task-name";
import { IMAGE_SCHEMES, linkTarget } from "./urls";

export interface HtmlOptions {
  /** Rewrites a link's href (the site: relative paths). Default: as stored. Checked again after. */
  pageHref?: (href: string) => string;
  /** Rewrites an image's src (the site: files in the zip; the HTML export: data: URLs). */
  imageSrc?: (src: string) => string;
  /** Where an attachment block links. Default: /api/attachments/<id>/download. */
  attachmentHref?: (attachmentId: string, filename: string) => string;
  /** A `download` name for an attachment block's link (the site: a file renamed so it cannot render). Default: none. */
  attachmentDownload?: (attachmentId: string) => string | null;
  /** A mention's name (without the @). Default: its stored label, else its id. */
  mentionName?: (id: string, label: string | null) => string;
  /**
   * A page link's target as this reader may see it: its current title and where to link (null:
   * nowhere, the title alone), or null for a page they may not read (or that is gone), shown as
   * UNSEEN_PAGE without a link.
   * Default: every target unseen (a renderer that cannot ask never shows a title).
   */
  pageLink?: (pageId: string) => { title: string; href: string | null } | null;
}

interface Json {
  type?: unknown;
  attrs?: Record<string, unknown>;
  content?: unknown;
  text?: unknown;
  marks?: unknown;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };
/** Text and attribute values, escaped as React escapes them. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

function allowed(url: unknown, schemes: readonly string[]): string | undefined {
  if (typeof url !== "string" || url.trim() === "" || /[\u0000-\u001f\u007f]/.test(url)) return undefined;
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  return scheme === undefined || schemes.includes(scheme) ? url : undefined;
}
/** An href a reader may follow (as urls.ts's linkTarget reads it), or undefined (`javascript:`, `data:`, `vbscript:`…). */
export const safeLink = (url: unknown) => linkTarget(url)?.href;
/** An image source: the web or our own relative URLs; `data:` only when we made it (imageSrc). */
const safeImage = (url: unknown) => allowed(url, IMAGE_SCHEMES);

/** ` name="value"` for each defined attribute, in order (a style as CSS text, left out when empty). */
function attrs(list: ElementAttrs): string {
  let out = "";
  for (const [name, given] of Object.entries(list)) {
    const value = typeof given === "object" ? styleText(given) || undefined : given;
    if (value === undefined || value === false) continue;
    out += value === true ? ` ${name}=""` : ` ${name}="${escapeHtml(String(value))}"`;
  }
  return out;
}

/** An element of the table in elements.ts around its inner HTML. */
function element(spec: ElementSpec, inner: string): string {
  const open = `<${spec.tag}${spec.attrs ? attrs(spec.attrs) : ""}`;
  return spec.empty ? `${open}/>` : `${open}>${inner}</${spec.tag}>`;
}

/** A type's entry of a table (never a property every object has, such as "constructor"). */
const entry = <T>(table: Record<string, T>, type: unknown): T | undefined =>
  typeof type === "string" && Object.hasOwn(table, type) ? table[type] : undefined;

const SVG_OPEN = (size: number, classes: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 24 24" fill="none" stroke="currentColor" ` +
  `stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="${classes}" aria-hidden="true">`;
/** lucide's icons as the reading view draws them (FileText; the five panel kinds). */
const FILE_ICON =
  SVG_OPEN(16, "lucide lucide-file-text") +
  '<path d="M6 22a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h8a2.4 2.4 0 0 1 1.704.706l3.588 3.588A2.4 2.4 0 0 1 20 8v12a2 2 0 0 1-2 ' +
  '2z"></path><path d="M14 2v5a1 1 0 0 0 1 1h5"></path><path d="M10 9H8"></path><path d="M16 13H8"></path><path d="M16 ' +
  '17H8"></path></svg>';
const PANEL_ICONS = {
  info:
    SVG_OPEN(18, "lucide lucide-info panel-icon") +
    '<circle cx="12" cy="12" r="10"></circle><path d="M12 16v-4"></path><path d="M12 8h.01"></path></svg>',
  note:
    SVG_OPEN(18, "lucide lucide-lightbulb panel-icon") +
    '<path d="M15 14c.2-1 .7-1.7 1.5-2.5 1-.9 1.5-2.2 1.5-3.5A6 6 0 0 0 6 8c0 1 .2 2.2 1.5 3.5.7.7 1.3 ' +
    '1.5 1.5 2.5"></path><path d="M9 18h6"></path><path d="M10 22h4"></path></svg>',
  warning:
    SVG_OPEN(18, "lucide lucide-triangle-exclamation-point lucide-alert-triangle lucide-triangle-alert panel-icon") +
    '<path d="m21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 ' +
    '1.73-3"></path><path d="M12 9v4"></path><path d="M12 17h.01"></path></svg>',
  success:
    SVG_OPEN(18, "lucide lucide-circle-check lucide-check-circle-2 panel-icon") +
    '<circle cx="12" cy="12" r="10"></circle><path d="m16 9-5.5 5.5L8 12"></path></svg>',
  error:
    SVG_OPEN(18, "lucide lucide-circle-exclamation-point lucide-alert-circle lucide-circle-alert panel-icon") +
    '<circle cx="12" cy="12" r="10"></circle><line x1="12" x2="12" y1="8" ' +
    'y2="12"></line><line x1="12" x2="12.01" y1="16" y2="16"></line></svg>',
} as const;

/** The document as the reading view draws it (without the `.prose` wrapper: see readingHtml). */
export function documentHtml(doc: unknown, opts: HtmlOptions = {}): string {
  return node(doc as Json, opts);
}

function children(n: Json, opts: HtmlOptions): string {
  return Array.isArray(n.content) ? n.content.map((c) => node(c as Json, opts)).join("") : "";
}

function node(n: Json, opts: HtmlOptions): string {
  if (!n || typeof n !== "object") return "";
  const html = nodeHtml(n, opts);
  // The first mark is innermost, as TipTap's static renderer wraps them.
  return Array.isArray(n.marks) ? n.marks.reduce<string>((inner, m) => mark(m as Json, inner, opts), html) : html;
}

function nodeHtml(n: Json, opts: HtmlOptions): string {
  const a = n.attrs ?? {};
  const inner = () => children(n, opts);
  switch (n.type) {
    case "text":
      return escapeHtml(String(n.text ?? ""));
    case "taskItem": {
      const checked = a.checked === true;
      const box = `<input${attrs({ type: "checkbox", disabled: true, "aria-label": taskName(n, checked), readonly: true, checked })}/>`;
      return element(NODE_ELEMENTS.taskItem!(a), `<label>${box}</label><div>${inner()}</div>`);
    }
    case "codeBlock": {
      const language = codeLanguage(a);
      return (
        `<pre${attrs({ "data-language": language || undefined })} tabindex="0"><code` +
        `${attrs({ class: language ? `language-${language}` : undefined })}>${inner()}</code></pre>`
      );
    }
    case "table":
      return element(NODE_ELEMENTS.table!(a), element(TABLE(tableWidth(n)), `<tbody>${inner()}</tbody>`));
    case "image": {
      const stored = safeImage(a.src);
      if (!stored) return "";
      const src = opts.imageSrc ? opts.imageSrc(stored) : stored;
      const shown = { src, alt: str(a.alt) ?? "", title: str(a.title), width: num(a.width), height: num(a.height), loading: "lazy" };
      return `<img${attrs(shown)}/>`;
    }
    case "attachment": {
      const id = str(a.attachmentId) ?? "";
      const name = String(a.filename ?? "") || "Attachment";
      const href = id ? (opts.attachmentHref ? opts.attachmentHref(id, name) : `/api/attachments/${encodeURIComponent(id)}/download`) : "";
      const download = id && href ? opts.attachmentDownload?.(id) : null;
      const link = href
        ? `<a${attrs({ href, download: download ?? undefined })}>${escapeHtml(name)}</a>`
        : `<span>${escapeHtml(name)}</span>`;
      return element(NODE_ELEMENTS.attachment!(a), FILE_ICON + link);
    }
    case "panel":
      return element(NODE_ELEMENTS.panel!(a), PANEL_ICONS[panelKind(a)] + element(PANEL_BODY, inner()));
    case "mention": {
      const id = String(a.id ?? "");
      const label = a.label == null ? null : String(a.label);
      const name = opts.mentionName ? opts.mentionName(id, label) : String(a.label ?? a.id ?? "");
      return element(NODE_ELEMENTS.mention!(a), escapeHtml(mentionText(name)));
    }
    case "pageLink": {
      const id = String(a.pageId ?? "");
      const target = opts.pageLink?.(id) ?? null;
      if (!target) return `<span class="page-link page-link-unseen" data-type="pageLink">${UNSEEN_PAGE}</span>`;
      const title = escapeHtml(target.title.trim() || "Untitled");
      const href = safeLink(target.href);
      // A page the reader may see that the file cannot link to (left out of a site without an address): its title.
      return href
        ? `<a class="page-link" data-type="pageLink" data-page-id="${escapeHtml(id)}" href="${escapeHtml(href)}">${title}</a>`
        : `<span class="page-link" data-type="pageLink">${title}</span>`;
    }
    default: {
      // The plain elements of the table; doc, and any node type this renderer does not know: its content.
      const spec = entry(NODE_ELEMENTS, n.type);
      return spec ? element(spec(a), inner()) : inner();
    }
  }
}

/** As wide as its columns add up to when all have widths (as in the editor); else undefined. */
function tableWidth(table: Json): number | undefined {
  const firstRow = (Array.isArray(table.content) ? table.content[0] : undefined) as Json | undefined;
  let total = 0;
  for (const c of (Array.isArray(firstRow?.content) ? firstRow.content : []) as Json[]) {
    const widths = c?.attrs?.colwidth;
    const span = num(c?.attrs?.colspan) ?? 1;
    if (!Array.isArray(widths) || widths.length < span || widths.some((w) => typeof w !== "number" || !w)) return undefined;
    total += (widths as number[]).reduce((x, y) => x + y, 0);
  }
  return total || undefined;
}

function mark(m: Json, inner: string, opts: HtmlOptions): string {
  const a = m?.attrs ?? {};
  if (m?.type === "link") {
    const stored = linkTarget(a.href);
    // A rewritten href is checked again: a rewrite must not smuggle a scheme in either.
    const target = stored && (opts.pageHref ? linkTarget(opts.pageHref(stored.href)) : stored);
    // A refused URL keeps its text, not its link.
    if (!target) return inner;
    return target.kind === "web"
      ? `<a href="${escapeHtml(target.href)}" target="_blank" rel="noopener noreferrer nofollow">${inner}</a>`
      : `<a href="${escapeHtml(target.href)}">${inner}</a>`;
  }
  // Unknown marks: their text.
  const spec = entry(MARK_ELEMENTS, m?.type);
  return spec ? element(spec(a), inner) : inner;
}
