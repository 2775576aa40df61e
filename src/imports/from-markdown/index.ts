/**
 * A zip of Markdown files and folders (what Obsidian, Notion's Markdown export, GitHub wikis,
 * Outline and static-site repositories hold) as an ImportedSpace. The folders give the tree
 * (tree.ts); each file's body goes through the server's one Markdown parser (content/markdown.ts,
 * so the same limits hold as for contentMarkdown), then its references to other files of the
 * zip become refs (rewrite.ts).
 *
 * - Title: front matter `title:`, else a first `# heading` (removed from the body), else the
 *   file name without Notion's trailing id.
 * - Labels from front matter `tags:`; dates from `created`/`date` and `updated`/`modified`.
 * - A single folder wrapping everything (a repository's zip, Notion's export folder) is not a
 *   page: its name becomes the space's.
 * - Root `index.md`, `README.md` or `Home.md` (GitHub wikis) is the space's home page;
 *   GitHub wikis' `_Sidebar.md` and `_Footer.md` are navigation, not pages, and are skipped.
 * - Files nothing links to are attached to the page of their folder when that folder is a page,
 *   else skipped (an `images/` folder at the top holds only what pages use).
 * - Raw HTML is read as what it means and a construct the parser cannot read is kept as text,
 *   named in `skipped` (read-body.ts); only a body past the limits of a whole page (too large,
 *   too complex for the parser's time) leaves the page empty, with the reason in `skipped`.
 */
import type { JSONContent } from "@tiptap/core";
import { MAX_MARKDOWN_BYTES } from "../../content/markdown";
import { EMPTY_DOCUMENT_JSON } from "../../content/schema";
import type { ImportedAttachment, ImportedPage, ImportedSpace } from "../model";
import { baseName, contentTypeOf, folderOf, isHiddenPath, MappedTally, refCounter, type OpenedZip, type ZipFile } from "./files";
import { splitFrontMatter } from "./front-matter";
import { readMarkdownBody } from "./read-body";
import { rewriteDocument, type RewriteContext } from "./rewrite";
import { isMarkdownPath, planTree, titleFromName, type PlannedPage } from "./tree";

const NAVIGATION_FILES = /^_(sidebar|footer|header)\.(md|markdown)$/i;
const HOME_FILES = ["index", "readme", "home"];
/** Each kind of skipped entry is listed at most this often; then one line says how many more. */
const MAX_SKIPPED_PER_REASON = 50;
/** A file larger than this is not read: its body could not be stored (front matter aside). */
const MAX_FILE_BYTES = 2 * MAX_MARKDOWN_BYTES;

/** `onPage`: called as each page is converted (an import's progress). */
export async function fromMarkdownZip(zip: OpenedZip, onPage: () => void = () => {}): Promise<ImportedSpace> {
  const skipped: ImportedSpace["skipped"] = [];
  const tally = new MappedTally();
  const hiddenTops = new Set<string>();
  const files: ZipFile[] = [];
  for (const entry of zip.entries) {
    if (entry.path.endsWith("/")) continue;
    if (isHiddenPath(entry.path)) {
      const top = entry.path.split("/").find((s) => s.startsWith(".") || s === "__MACOSX") ?? entry.path;
      const at = entry.path.slice(0, entry.path.indexOf(top) + top.length);
      if (!hiddenTops.has(at))
        skipped.push({ path: at, reason: "hidden files and folders (app settings such as .obsidian, .git, __MACOSX) are not content" });
      hiddenTops.add(at);
      continue;
    }
    if (NAVIGATION_FILES.test(baseName(entry.path))) {
      skipped.push({ path: entry.path, reason: "a wiki's sidebar, header or footer is navigation, not a page" });
      continue;
    }
    files.push(entry);
  }

  // One folder around everything is the archive's wrapper, not a page.
  const tops = new Set(files.map((f) => (f.path.includes("/") ? f.path.slice(0, f.path.indexOf("/")) : "")));
  const wrapper = tops.size === 1 && !tops.has("") ? [...tops][0] : null;
  const logical = (file: ZipFile) => (wrapper ? file.path.slice(wrapper.length + 1) : file.path).normalize("NFC");

  const pageRef = refCounter("p");
  const plan = planTree(files, logical, pageRef);
  // Messages name paths as they are in the zip.
  if (wrapper) for (const page of plan) page.sourcePath = `${wrapper}/${page.sourcePath}`;
  const assets = new Map<string, ZipFile>();
  for (const file of files) if (!isMarkdownPath(logical(file))) assets.set(logical(file), file);

  // Addresses of pages: their Markdown file, and a folder that is a page.
  const pageAt = new Map<string, string>();
  const byName = new Map<string, string[]>(); // lower-case name without extension → paths (for [[wikilinks]])
  const addName = (name: string, path: string) => {
    const key = name.toLowerCase();
    (byName.get(key) ?? byName.set(key, []).get(key)!).push(path);
  };
  for (const page of plan) {
    if (page.file) pageAt.set(logical(page.file), page.ref);
    if (page.folder !== null) pageAt.set(page.folder, page.ref);
    const path = page.file ? logical(page.file) : page.folder!;
    addName(baseName(path).replace(/\.[^.]+$/, ""), path);
  }
  for (const path of assets.keys()) addName(baseName(path), path);
  const findPage = (path: string) => pageAt.get(path) ?? pageAt.get(`${path}.md`) ?? pageAt.get(path.replace(/\/$/, "")) ?? null;
  const wikiTarget = (name: string): string | null => {
    const direct = name.replace(/^\//, "");
    if (findPage(direct) || assets.has(direct)) return direct;
    // Obsidian resolves a bare name anywhere in the vault; the shortest path wins a tie.
    const candidates =
      byName.get(baseName(direct).toLowerCase()) ??
      byName.get(
        baseName(direct)
          .replace(/\.(md|markdown)$/i, "")
          .toLowerCase(),
      );
    return candidates?.slice().sort((a, b) => a.length - b.length)[0] ?? null;
  };

  const attachmentRef = refCounter("a");
  const blobs = new Map<string, ZipFile>();
  const used = new Set<string>();
  const skipCount = new Map<string, number>();
  const pages: ImportedPage[] = [];
  for (const planned of plan) {
    const attachments: ImportedAttachment[] = [];
    const attachedHere = new Map<string, string>();
    const attach = (file: ZipFile): string => {
      const path = logical(file);
      used.add(path);
      blobs.set(path, file);
      let ref = attachedHere.get(path);
      if (!ref) {
        ref = attachmentRef();
        attachedHere.set(path, ref);
        attachments.push({ ref, filename: baseName(path), contentType: contentTypeOf(path), blob: path, uploadedBy: null });
      }
      return ref;
    };
    const said = new Set<string>();
    const skip = (reason: string) => {
      // Once per page, however often the page says it.
      if (said.has(reason)) return;
      said.add(reason);
      const kind = reason.replace(/"[^"]*"|\[\[.*?\]\]/g, "…");
      const n = (skipCount.get(kind) ?? 0) + 1;
      skipCount.set(kind, n);
      if (n <= MAX_SKIPPED_PER_REASON) skipped.push({ path: planned.sourcePath, reason });
    };
    const ctx: RewriteContext = {
      folder: planned.file ? folderOf(logical(planned.file)) : planned.folder!,
      sourcePath: planned.sourcePath,
      pageAt: findPage,
      fileAt: (path) => assets.get(path),
      wikiTarget,
      attach,
      tally,
      skip,
    };
    pages.push(await convertPage(planned, ctx, attachments));
    onPage();
  }
  for (const [kind, n] of skipCount) {
    if (n > MAX_SKIPPED_PER_REASON) skipped.push({ path: "", reason: `${n - MAX_SKIPPED_PER_REASON} more like "${kind}"` });
  }

  // Files nothing linked to: with their folder's page, else left out.
  const folderPage = new Map(plan.filter((p) => p.folder !== null).map((p) => [p.folder!, p.ref]));
  const pageByRef = new Map(pages.map((p) => [p.ref, p]));
  for (const [path, file] of assets) {
    if (used.has(path)) continue;
    const owner = folderPage.get(folderOf(path));
    if (!owner) {
      skipped.push({ path: file.path, reason: "no page links to it, and its folder is not a page" });
      continue;
    }
    blobs.set(path, file);
    pageByRef
      .get(owner)!
      .attachments.push({ ref: attachmentRef(), filename: baseName(path), contentType: contentTypeOf(path), blob: path, uploadedBy: null });
    tally.add("files no page links to", "attached to the page of their folder");
  }
  const emptyFolders = plan.filter((p) => !p.file).length;
  if (emptyFolders)
    tally.add("folders without a page of their own", "became pages with an empty body holding their files and pages", emptyFolders);

  const home = plan.find(
    (p) =>
      p.parent === null &&
      p.file &&
      HOME_FILES.includes(
        baseName(logical(p.file))
          .replace(/\.[^.]+$/, "")
          .toLowerCase(),
      ),
  );
  return {
    format: "markdown",
    space: { name: wrapper ? titleFromName(wrapper) : "Imported pages" },
    authors: [],
    pages,
    templates: [],
    blobs,
    homepage: home?.ref ?? null,
    mapped: tally.list(),
    skipped,
  };
}

async function convertPage(planned: PlannedPage, ctx: RewriteContext, attachments: ImportedAttachment[]): Promise<ImportedPage> {
  let title = planned.nameTitle;
  let labels: string[] = [];
  let createdAt: string | undefined;
  let updatedAt: string | undefined;
  let content = JSON.parse(EMPTY_DOCUMENT_JSON) as JSONContent;
  if (planned.file && planned.file.size > MAX_FILE_BYTES) {
    ctx.skip(
      `the file is ${(planned.file.size / 1024 / 1024).toFixed(1)} MB, more than a page holds ` +
        `(${MAX_MARKDOWN_BYTES / 1024 / 1024} MB of Markdown); the page is empty`,
    );
  } else if (planned.file) {
    const { body, meta } = splitFrontMatter(await planned.file.text());
    labels = meta.labels;
    createdAt = meta.createdAt;
    updatedAt = meta.updatedAt;
    try {
      const { doc, keptAsText } = readMarkdownBody(notionAsides(body), ctx.tally);
      for (const construct of keptAsText) ctx.skip(`a construct the converter cannot read is kept as text: ${construct}`);
      // A README often puts its logo and badges above its first heading: that heading is still the title.
      const at = (doc.content ?? []).findIndex((block) => !isDecoration(block));
      const first = doc.content?.[at];
      const heading = first?.type === "heading" && first.attrs?.level === 1 ? textOf(first).trim() : "";
      if (meta.title) title = meta.title;
      else if (heading) title = heading;
      // The title is the page's own; a first heading repeating it would show it twice.
      if (heading && heading.toLowerCase() === title.toLowerCase()) doc.content = doc.content!.filter((_, i) => i !== at);
      content = rewriteDocument(doc, ctx);
    } catch (error) {
      if (meta.title) title = meta.title;
      ctx.skip(`the body could not be converted (${(error as Error).message}); the page is empty`);
    }
  }
  return {
    ref: planned.ref,
    parent: planned.parent,
    position: planned.position,
    title: title.slice(0, 255),
    emoji: null,
    fullWidth: false,
    createdBy: null,
    updatedBy: null,
    createdAt,
    updatedAt: updatedAt ?? createdAt,
    labels,
    versions: [{ title: title.slice(0, 255), changeComment: null, author: null, createdAt: updatedAt ?? createdAt, content }],
    comments: [],
    attachments,
    sourcePath: planned.sourcePath,
  };
}

/** An image, or a paragraph of nothing but links (badges) and white space. */
function isDecoration(block: JSONContent): boolean {
  if (block.type === "image") return true;
  if (block.type !== "paragraph") return false;
  return (block.content ?? []).every(
    (n) => n.type === "hardBreak" || (n.type === "text" && (!n.text!.trim() || n.marks?.some((m) => m.type === "link"))),
  );
}

function textOf(node: JSONContent): string {
  return node.text ?? (node.content ?? []).map(textOf).join("");
}

/** Notion writes its callouts as `<aside>` HTML around Markdown: a panel's fenced form. */
function notionAsides(markdown: string): string {
  return markdown.replace(
    /^<aside>[ \t]*\r?\n([\s\S]*?)\r?\n<\/aside>[ \t]*$/gm,
    (_, inner: string) => `:::panel {kind="info"}\n${inner.trim()}\n:::`,
  );
}
