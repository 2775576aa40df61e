/**
 * A Confluence space export (Space tools → Export → HTML) as an ImportedSpace. The zip holds
 * `<KEY>/index.html` (the space's overview: its pages in tree order), one `<Title>_<id>.html` or
 * `<id>.html` per page, `attachments/<pageId>/<attachmentId>.<ext>`, and Confluence's own
 * `images/` and `styles/`. Each page has its ancestors in `#breadcrumb-section` (the first is
 * the space's index.html), its title in `#title-text` ("Space name : Title"), its body in
 * `#main-content` (body.ts converts it), and a list of its attachments with their real names.
 *
 * Pages are read twice, once for the tree and names and once for the body, so only one page's
 * parsed HTML is held at a time however large the space.
 *
 * - A page's parent is its last breadcrumb that is a page of the export; breadcrumbs that loop
 *   are cut (the page goes to the top). Siblings keep index.html's order.
 * - Every file in a page's attachments folder is attached to it; one another page's body uses is
 *   attached to that page too. Images and links to them point at the attachment.
 * - The author and last editor named in the page's byline become authors (no e-mail: an export
 *   has none, so they stay names); its dates, when in English, the page's dates.
 * - A space with one top-level page (Confluence's home page) has it as its home page.
 */
import type { JSONContent } from "@tiptap/core";
import { KEY_MAX } from "../../spaces/service";
import { ATTACHMENT_REF, PAGE_REF, type ImportedAttachment, type ImportedAuthor, type ImportedPage, type ImportedSpace } from "../model";
import { importRefused } from "../refused";
import { AppError } from "../../platform/errors";
import {
  baseName,
  contentTypeOf,
  decodePath,
  folderOf,
  isHiddenPath,
  isRelativeAddress,
  MappedTally,
  refCounter,
  resolvePath,
  splitAddress,
  type OpenedZip,
  type ZipFile,
} from "../from-markdown/files";
import { bodyDocument, type BodyContext } from "./body";
import { placePages } from "./tree";
import {
  attr,
  byId,
  find,
  findAll,
  hasClass,
  htmlBudget,
  HtmlOverBudget,
  parseHtml,
  textContent,
  type HtmlBudget,
  type HtmlElement,
} from "./dom";
import { CONFLUENCE_PAGE_MAX_BYTES, CONFLUENCE_PAGE_MAX_NODES, confluencePageTimeBudget } from "../limits";
import { MAX_NODES } from "../../content/structure";
import { MAX_CONTENT_BYTES } from "../../common/limits";

interface PageMeta {
  ref: string;
  file: ZipFile;
  /** The page's name in the export (what links use): "Setup_123.html". */
  name: string;
  confluenceId: string | null;
  title: string;
  ancestors: string[];
  /** Attachment path (under the base) → its real file name, from the page's attachment list. */
  attachmentNames: Map<string, string>;
  author: string | null;
  editor: string | null;
  createdAt?: string;
  updatedAt?: string;
}

const MAX_SKIPPED_PER_REASON = 50;
const MB = 1024 * 1024;
const UTF8 = new TextEncoder();
const UTF8_TEXT = new TextDecoder();
/**
 * A converted page larger than this is refused at once: twice what a stored page holds, because
 * references are rewritten and the document checked later (where the 2 MB limit itself applies).
 */
const MAX_CONVERTED_BYTES = 2 * MAX_CONTENT_BYTES;

/** 400 import_refused naming the file: one page past a limit refuses the import (it could not be stored anyway). */
function pageTooLarge(file: ZipFile, reason: string) {
  return importRefused(
    `the page is too large to import: its HTML ${reason}; a page holds at most ` +
      `${MAX_NODES.toLocaleString("en")} blocks and pieces of text and 2 MB`,
    file.path,
  );
}

/**
 * One file's HTML parsed within the page limits (limits.ts), refused past them before the rest
 * of it is read: a page of a million paragraphs stops at the limit instead of costing gigabytes.
 */
async function readPage(file: ZipFile): Promise<{ html: HtmlElement; budget: HtmlBudget }> {
  if (file.size > CONFLUENCE_PAGE_MAX_BYTES)
    throw pageTooLarge(file, `is ${(file.size / MB).toFixed(1)} MB (at most ${CONFLUENCE_PAGE_MAX_BYTES / MB} MB)`);
  const budget = htmlBudget(CONFLUENCE_PAGE_MAX_NODES, confluencePageTimeBudget(file.size));
  try {
    return { html: parseHtml(await file.text(), budget), budget };
  } catch (error) {
    if (error instanceof HtmlOverBudget) throw pageTooLarge(file, error.reason);
    throw error;
  }
}

/** `onPage`: called as each page's body is converted (an import's progress). */
export async function fromConfluenceZip(zip: OpenedZip, onPage: () => void = () => {}): Promise<ImportedSpace> {
  const index = zip.entries
    .filter((e) => baseName(e.path).toLowerCase() === "index.html" && !isHiddenPath(e.path))
    .sort((a, b) => a.path.length - b.path.length)[0];
  if (!index) throw importRefused("not a Confluence space export: it has no index.html");
  const base = folderOf(index.path);
  const inBase = (path: string) => (base ? path.startsWith(`${base}/`) : true);
  const relative = (path: string) => (base ? path.slice(base.length + 1) : path);

  const tally = new MappedTally();
  const skipped: ImportedSpace["skipped"] = [];
  const skipCount = new Map<string, number>();
  const skip = (path: string, reason: string, kind = reason) => {
    const n = (skipCount.get(kind) ?? 0) + 1;
    skipCount.set(kind, n);
    if (n <= MAX_SKIPPED_PER_REASON) skipped.push({ path, reason });
  };

  // The overview: the space's name and its pages in tree order.
  const overview = (await readPage(index)).html;
  const order = new Map<string, number>();
  for (const a of findAll(find(overview, byId("main-content")) ?? overview, (el) => el.tagName === "a")) {
    const href = attr(a, "href");
    if (href && !order.has(decodePath(href))) order.set(decodePath(href), order.size);
  }

  // First pass: names, titles, breadcrumbs, attachment names.
  const pageRef = refCounter("p");
  const metas: PageMeta[] = [];
  let spaceName: string | null = null;
  for (const file of zip.entries) {
    const rel = relative(file.path);
    if (!inBase(file.path) || rel.includes("/") || !/\.html?$/i.test(rel) || file === index) continue;
    const { html } = await readPage(file);
    const breadcrumbs = find(html, byId("breadcrumb-section")) ?? find(html, byId("breadcrumbs"));
    const crumbs = breadcrumbs ? findAll(breadcrumbs, (el) => el.tagName === "a") : [];
    const home = crumbs.find((a) => attr(a, "href")?.toLowerCase() === "index.html");
    spaceName ??= home ? textContent(home) || null : null;
    const rawTitle = textContent(find(html, byId("title-text")) ?? find(html, (el) => el.tagName === "title") ?? html);
    const byline = find(html, (el) => hasClass(el, "page-metadata"));
    const person = (cls: string) => (byline ? textContent(find(byline, (el) => hasClass(el, cls)) ?? byline) || null : null);
    const names = new Map<string, string>();
    for (const a of findAll(html, (el) => el.tagName === "a" && /^attachments\//.test(attr(el, "href") ?? ""))) {
      const path = splitAddress(decodePath(attr(a, "href")!)).path;
      const name = textContent(a);
      if (name && !names.has(path) && !/^<?img/i.test(name)) names.set(path, name);
    }
    for (const img of findAll(html, (el) => el.tagName === "img" && Boolean(attr(el, "data-linked-resource-default-alias")))) {
      const path = splitAddress(decodePath(attr(img, "data-image-src") ?? attr(img, "src") ?? "")).path;
      if (path && !names.has(path)) names.set(path, attr(img, "data-linked-resource-default-alias")!);
    }
    const bylineText = byline ? textContent(byline) : "";
    metas.push({
      ref: pageRef(),
      file,
      name: rel,
      confluenceId: /(?:^|_)(\d+)\.html?$/i.exec(rel)?.[1] ?? null,
      title: rawTitle,
      ancestors: crumbs.map((a) => decodePath(attr(a, "href") ?? "")).filter((h) => h && h.toLowerCase() !== "index.html"),
      attachmentNames: names,
      author: byline && find(byline, (el) => hasClass(el, "author")) ? person("author") : null,
      editor: byline && find(byline, (el) => hasClass(el, "editor")) ? person("editor") : null,
      ...bylineDates(bylineText),
    });
  }
  spaceName ??=
    textContent(find(overview, (el) => el.tagName === "title") ?? overview).replace(/\s*:.*$/, "") || baseName(base) || "Confluence";
  for (const meta of metas) {
    const prefix = `${spaceName} : `;
    meta.title = (meta.title.startsWith(prefix) ? meta.title.slice(prefix.length) : meta.title).trim() || titleFromFileName(meta.name);
    meta.title = meta.title.slice(0, 255);
  }

  const byName = new Map(metas.map((m) => [m.name, m]));
  const byConfluenceId = new Map(metas.filter((m) => m.confluenceId).map((m) => [m.confluenceId!, m]));
  const ordered = placePages(metas, order, () => tally.add("breadcrumbs that loop", "the page was placed at the top of the space"));
  const parentOf = new Map(ordered.map((o) => [o.item, o.parent]));

  // Authors named in bylines.
  const authors: ImportedAuthor[] = [];
  const authorRef = new Map<string, string>();
  const author = (name: string | null) => {
    if (!name) return null;
    let ref = authorRef.get(name);
    if (!ref) {
      ref = `a${authors.length + 1}`;
      authorRef.set(name, ref);
      authors.push({ ref, name, email: null });
    }
    return ref;
  };
  if (metas.some((m) => m.author || m.editor))
    tally.add("authors", "kept as names: an HTML export has no e-mail addresses to match accounts by");

  // Files: attachments by path under the base.
  const files = new Map<string, ZipFile>();
  for (const e of zip.entries) if (inBase(e.path) && !isHiddenPath(e.path)) files.set(relative(e.path), e);
  // attachments/<pageId>/…: each page's own files.
  const ownFiles = new Map<string, string[]>();
  for (const path of files.keys()) {
    const pageId = /^attachments\/(\d+)\/[^/]+$/.exec(path)?.[1];
    if (pageId) (ownFiles.get(pageId) ?? ownFiles.set(pageId, []).get(pageId)!).push(path);
  }
  const attachmentNames = new Map<string, string>();
  for (const meta of metas)
    for (const [path, name] of meta.attachmentNames) if (!attachmentNames.has(path)) attachmentNames.set(path, name);
  const blobs = new Map<string, ZipFile>();
  const used = new Set<string>();
  const attachmentRef = refCounter("f");
  const roots = ordered.filter((o) => o.parent === null);
  const homepage = roots.length === 1 ? roots[0].item.ref : null;

  // Second pass: bodies.
  const pages: ImportedPage[] = [];
  for (const { item: meta, position } of ordered) {
    const attachments: ImportedAttachment[] = [];
    const attached = new Map<string, ImportedAttachment>();
    const attach = (path: string): ImportedAttachment => {
      let a = attached.get(path);
      if (!a) {
        const filename = meta.attachmentNames.get(path) ?? attachmentNames.get(path) ?? baseName(path);
        a = { ref: attachmentRef(), filename: filename.slice(0, 255), contentType: contentTypeOf(filename), blob: path, uploadedBy: null };
        attached.set(path, a);
        attachments.push(a);
        blobs.set(path, files.get(path)!);
        used.add(path);
      }
      return a;
    };
    const fileAt = (href: string): string | null => {
      if (!isRelativeAddress(href)) return null;
      const path = resolvePath("", decodePath(splitAddress(href).path));
      return path !== null && files.has(path) && !/\.html?$/i.test(path) ? path : null;
    };
    const ctx: BodyContext = {
      link: (href) => {
        if (!isRelativeAddress(href)) return /^(https?|mailto|tel):/i.test(href) || href.startsWith("#") ? href : null;
        const { path, fragment } = splitAddress(decodePath(href));
        const target = byName.get(path) ?? confluenceLink(href, byConfluenceId);
        if (target) return PAGE_REF + target.ref + (fragment ? `#${encodeURIComponent(fragment)}` : "");
        if (path.toLowerCase() === "index.html") return homepage ? PAGE_REF + homepage : null;
        const file = fileAt(href);
        if (file) return ATTACHMENT_REF + attach(file).ref;
        skip(meta.file.path, `a link to "${href}", which is not in the export, is kept as text`, "link");
        return null;
      },
      image: (src) => {
        if (/^https?:/i.test(src)) return src;
        const file = fileAt(src);
        if (file) return ATTACHMENT_REF + attach(file).ref;
        skip(meta.file.path, `the image "${src}" is not in the export; its description is kept as text`, "image");
        return null;
      },
      attachmentBlock: (ref) => {
        const a = attachments.find((x) => x.ref === ref);
        return a
          ? { type: "attachment", attrs: { attachmentId: a.ref, filename: a.filename, size: files.get(a.blob)!.size, contentType: null } }
          : null;
      },
      mapped: (what, reason) => tally.add(what, reason),
    };
    let content: JSONContent;
    const { html, budget } = await readPage(meta.file);
    // The walk has what is left of the page's time (its nodes were counted as they were parsed).
    let walked = 0;
    ctx.tick = () => {
      if ((++walked & 255) === 0 && performance.now() > budget.deadline)
        throw pageTooLarge(meta.file, "took too long to convert (the time allowed for a page of its size ran out)");
    };
    try {
      const main = find(html, byId("main-content"));
      if (!main) skip(meta.file.path, "the page has no #main-content: its body is empty");
      content = main ? bodyDocument(main, ctx) : { type: "doc", content: [{ type: "paragraph" }] };
      if (find(html, byId("comments-section"))) tally.add("comments", "not imported (an HTML export keeps them only as text)");
    } catch (error) {
      if (error instanceof AppError && error.problemCode === "import_refused") throw error;
      // A body too deeply nested to walk, or a document past the schema's limits.
      skip(meta.file.path, `the body could not be converted (${(error as Error).message}); the page is empty`);
      content = { type: "doc", content: [{ type: "paragraph" }] };
    }
    // Kept as UTF-8 until the plan reads it (as a pack's documents are): the converted pages of a
    // large space are held until the import is written, and objects take several times their JSON.
    const bytes = UTF8.encode(JSON.stringify(content));
    if (bytes.byteLength > MAX_CONVERTED_BYTES) {
      throw importRefused(
        `the page is too large to import: it converts to a document of ${(bytes.byteLength / MB).toFixed(1)} ` +
          `MB (a page holds at most ${MAX_CONTENT_BYTES / MB} MB)`,
        meta.file.path,
      );
    }
    // The page's own files, whether its body shows them or not.
    for (const path of meta.confluenceId ? (ownFiles.get(meta.confluenceId) ?? []) : []) attach(path);
    pages.push({
      ref: meta.ref,
      parent: parentOf.get(meta)?.ref ?? null,
      position,
      title: meta.title,
      emoji: null,
      fullWidth: false,
      createdBy: author(meta.author),
      updatedBy: author(meta.editor ?? meta.author),
      createdAt: meta.createdAt,
      updatedAt: meta.updatedAt,
      labels: [],
      versions: [
        {
          title: meta.title,
          changeComment: null,
          author: author(meta.editor ?? meta.author),
          createdAt: meta.updatedAt,
          get content() {
            return JSON.parse(UTF8_TEXT.decode(bytes)) as JSONContent;
          },
        },
      ],
      comments: [],
      attachments,
      sourcePath: meta.file.path,
    });
    onPage();
  }

  for (const [path, file] of files) {
    if (used.has(path) || file === index || byName.has(path)) continue;
    if (/^(images|styles)\//.test(path))
      skip(`${base ? `${base}/` : ""}${path.split("/")[0]}`, "Confluence's own icons and styles", path.split("/")[0]);
    else
      skip(
        file.path,
        /^attachments\//.test(path) ? "an attachment of a page that is not in the export" : "not a page or an attachment of the export",
        "file",
      );
  }
  for (const [kind, n] of skipCount) {
    if (n > MAX_SKIPPED_PER_REASON && kind !== "images" && kind !== "styles")
      skipped.push({ path: "", reason: `${n - MAX_SKIPPED_PER_REASON} more like these (${kind})` });
  }

  const key = baseName(base);
  return {
    format: "confluence",
    space: {
      name: spaceName.slice(0, 200),
      ...(new RegExp(`^[A-Za-z][A-Za-z0-9]{1,${KEY_MAX - 1}}$`).test(key) ? { key: key.toUpperCase() } : {}),
    },
    authors,
    pages,
    templates: [],
    blobs,
    homepage,
    mapped: tally.list(),
    skipped,
  };
}

/** Links Confluence writes when it could not make a file name: viewpage.action?pageId=N. */
function confluenceLink(href: string, byId: Map<string, PageMeta>): PageMeta | undefined {
  const id = /[?&]pageId=(\d+)/.exec(href)?.[1];
  return id ? byId.get(id) : undefined;
}

function titleFromFileName(name: string): string {
  return (
    name
      .replace(/\.html?$/i, "")
      .replace(/_\d+$/, "")
      .replace(/-/g, " ")
      .trim() || name
  );
}

/** "Created by A, last modified by B on Jun 29, 2019" (English exports only). */
function bylineDates(byline: string): { createdAt?: string; updatedAt?: string } {
  const on = /\bon ([A-Z][a-z]{2,8} \d{1,2}, \d{4}(?: \d{1,2}:\d{2})?)/.exec(byline)?.[1];
  const date = on ? new Date(`${on} UTC`) : null;
  if (!date || Number.isNaN(date.getTime())) return {};
  const iso = date.toISOString();
  return /last modified/.test(byline) ? { updatedAt: iso } : { createdAt: iso, updatedAt: iso };
}
