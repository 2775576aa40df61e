/**
 * The second half of a Markdown page's conversion: the document the server's Markdown parser
 * made, with what pointed at other files of the zip turned into refs (model.ts):
 *
 * - links to other Markdown files (relative, URL-encoded, with `../`, with or without `.md`
 *   as GitHub wikis write them) become `cairn-page:<ref>` links, their #heading kept;
 * - Obsidian `[[Page]]`, `[[Page|text]]`, `[[Folder/Page#Heading]]` become the same links (the
 *   heading dropped: Obsidian names it by its text, not by an anchor);
 *   `![[image.png]]` embeds become images, `![[file.pdf]]` attachment blocks, `![[Note]]` a link;
 * - images with relative sources become attachments (`cairn-attachment:<ref>`);
 * - a paragraph that is only a link to a non-Markdown file becomes an attachment block; a link
 *   to a file inside other text links to the attachment (`cairn-attachment:<ref>`);
 * - callouts (`> [!NOTE] Title`, GitHub's and Obsidian's) become panels: see CALLOUT_KINDS.
 *
 * What points at nothing in the zip is kept as its text and listed in `skipped`.
 */
import type { JSONContent } from "@tiptap/core";
import { fitToSchema } from "../../content/markdown-fit";
import { ATTACHMENT_REF, PAGE_REF } from "../model";
import { decodePath, isImagePath, isRelativeAddress, MappedTally, resolvePath, splitAddress, type ZipFile } from "./files";

export interface RewriteContext {
  /** The folder the page's relative addresses start from. */
  folder: string;
  sourcePath: string;
  /** The page ref a zip path (a Markdown file, or a folder that is a page) stands for. */
  pageAt(path: string): string | null;
  /** The non-Markdown file at a zip path. */
  fileAt(path: string): ZipFile | undefined;
  /** The zip path an Obsidian wikilink target names (a path, or a name found anywhere). */
  wikiTarget(name: string): string | null;
  /** Attaches the file to the page (once); answers its attachment ref. */
  attach(file: ZipFile): string;
  tally: MappedTally;
  skip(reason: string): void;
}

/**
 * GitHub's five alerts first, then Obsidian's other callout types, mapped to the panel whose
 * colour matches (info blue, note purple, warning amber, success green, error red). Obsidian's
 * `caution` is an alias of its `warning`, but GitHub's CAUTION is red: GitHub's wins.
 * `quote`/`cite` stay quotes; anything else is an info panel.
 */
export const CALLOUT_KINDS: Record<string, string> = {
  note: "info",
  tip: "success",
  important: "note",
  warning: "warning",
  caution: "error",
  abstract: "info",
  summary: "info",
  tldr: "info",
  info: "info",
  todo: "info",
  hint: "success",
  success: "success",
  check: "success",
  done: "success",
  question: "warning",
  help: "warning",
  faq: "warning",
  attention: "warning",
  failure: "error",
  fail: "error",
  missing: "error",
  danger: "error",
  error: "error",
  bug: "error",
  example: "note",
};

export function rewriteDocument(doc: JSONContent, ctx: RewriteContext): JSONContent {
  return fitToSchema({ ...doc, content: blocks(doc.content ?? [], ctx) });
}

function blocks(nodes: JSONContent[], ctx: RewriteContext): JSONContent[] {
  return nodes.flatMap((node) => block(node, ctx));
}

function block(node: JSONContent, ctx: RewriteContext): JSONContent[] {
  switch (node.type) {
    case "codeBlock":
      return [node];
    case "image":
      return image(node, ctx);
    case "blockquote":
      return [callout(node, ctx) ?? { ...node, content: blocks(node.content ?? [], ctx) }];
    case "paragraph":
    case "heading": {
      const attachment = node.type === "paragraph" ? attachmentParagraph(node, ctx) : null;
      if (attachment) return [attachment];
      return splitAroundBlocks(node, inline(node.content ?? [], ctx, node.type === "paragraph"));
    }
    default:
      return node.content ? [{ ...node, content: blocks(node.content, ctx) }] : [node];
  }
}

/** A text block whose inline content gained blocks (embeds), split around them. */
function splitAroundBlocks(node: JSONContent, content: JSONContent[]): JSONContent[] {
  const out: JSONContent[] = [];
  let run: JSONContent[] = [];
  const flush = () => {
    if (run.some((child) => child.type !== "text" || child.text!.trim() !== "")) out.push({ ...node, content: run });
    run = [];
  };
  for (const child of content) {
    if (child.type === "image" || child.type === "attachment") {
      flush();
      out.push(child);
    } else run.push(child);
  }
  flush();
  return out.length ? out : [{ ...node, content: [] }];
}

function inline(nodes: JSONContent[], ctx: RewriteContext, allowBlocks: boolean): JSONContent[] {
  const out: JSONContent[] = [];
  for (const node of nodes) {
    if (node.type !== "text") {
      out.push(node);
      continue;
    }
    const marks = node.marks?.flatMap((mark) => (mark.type === "link" ? linkMark(mark, ctx) : [mark]));
    const text = { ...node, marks: marks?.length ? marks : undefined };
    if (text.marks?.some((m) => m.type === "code") || !text.text?.includes("[[")) out.push(text);
    else out.push(...wikilinks(text, ctx, allowBlocks));
  }
  return out;
}

type Mark = NonNullable<JSONContent["marks"]>[number];

/** A link mark with its address resolved: a page ref, kept, or dropped (its text stays). */
function linkMark(mark: Mark, ctx: RewriteContext): Mark[] {
  const href = String(mark.attrs?.href ?? "");
  if (!isRelativeAddress(href)) return [mark];
  const { path, fragment } = splitAddress(href);
  const target = resolvePath(ctx.folder, decodePath(path));
  const page = target === null ? null : ctx.pageAt(target);
  if (page) return [{ ...mark, attrs: { ...mark.attrs, href: PAGE_REF + page + (fragment ? `#${fragment}` : ""), target: null } }];
  const file = target === null ? undefined : ctx.fileAt(target);
  if (file) return [{ ...mark, attrs: { ...mark.attrs, href: ATTACHMENT_REF + ctx.attach(file) } }];
  if (path === "" && fragment !== null) return [mark];
  ctx.skip(`a link to "${href}", which is not in the zip, is kept as text`);
  return [];
}

function image(node: JSONContent, ctx: RewriteContext): JSONContent[] {
  const src = String(node.attrs?.src ?? "");
  if (!isRelativeAddress(src)) return [node];
  const target = resolvePath(ctx.folder, decodePath(splitAddress(src).path));
  const file = target === null ? undefined : ctx.fileAt(target);
  if (file) return [{ ...node, attrs: { ...node.attrs, src: ATTACHMENT_REF + ctx.attach(file) } }];
  ctx.skip(`the image "${src}" is not in the zip; its description is kept as text`);
  const alt = String(node.attrs?.alt ?? "").trim();
  return alt ? [{ type: "paragraph", content: [{ type: "text", text: alt }] }] : [];
}

const API_ATTACHMENT = /\/api\/attachments\/[^/?#]+\/(download|view)\b/;

/**
 * A paragraph that is one link to a file (in the zip, or a Cairn attachment address whose file
 * sits in the zip under the link's text): an attachment block.
 */
function attachmentParagraph(node: JSONContent, ctx: RewriteContext): JSONContent | null {
  const only = node.content?.length === 1 ? node.content[0] : null;
  const link = only?.type === "text" ? only.marks?.find((m) => m.type === "link") : undefined;
  if (!only || !link) return null;
  const href = String(link.attrs?.href ?? "");
  let file: ZipFile | undefined;
  if (API_ATTACHMENT.test(href)) {
    file =
      ctx.fileAt(resolvePath(ctx.folder, only.text ?? "") ?? "") ??
      ctx.fileAt(resolvePath(ctx.folder, `attachments/${only.text ?? ""}`) ?? "");
    if (!file) {
      ctx.tally.add("links to Cairn attachments", "the file is not in the zip, so the link is kept");
      return null;
    }
  } else if (isRelativeAddress(href)) {
    const target = resolvePath(ctx.folder, decodePath(splitAddress(href).path));
    file = target === null ? undefined : ctx.fileAt(target);
  }
  if (!file) return null;
  return attachmentNode(file, ctx);
}

function attachmentNode(file: ZipFile, ctx: RewriteContext): JSONContent {
  const name = file.path.slice(file.path.lastIndexOf("/") + 1);
  return { type: "attachment", attrs: { attachmentId: ctx.attach(file), filename: name, size: file.size, contentType: null } };
}

const WIKILINK = /(!?)\[\[([^[\]\n]{1,500}?)\]\]/g;

/** Obsidian's `[[target#heading|text]]` and `![[embed|size]]` inside one text node. */
function wikilinks(node: JSONContent, ctx: RewriteContext, allowBlocks: boolean): JSONContent[] {
  const text = node.text!;
  const out: JSONContent[] = [];
  let at = 0;
  const plain = (s: string, marks = node.marks) => {
    if (s) out.push({ ...node, text: s, marks });
  };
  for (const match of text.matchAll(WIKILINK)) {
    plain(text.slice(at, match.index));
    at = match.index + match[0].length;
    const embed = match[1] === "!";
    const [rawTarget, alias] = splitOnce(match[2], "|");
    const name = rawTarget.replace(/[#^].*$/, "").trim();
    const path = name ? ctx.wikiTarget(name) : null;
    const label = (!embed && alias?.trim()) || rawTarget.trim();
    const page = path ? ctx.pageAt(path) : null;
    const file = path && !page ? ctx.fileAt(path) : undefined;
    if (page) {
      if (embed) ctx.tally.add("embedded notes", "an embedded note (![[Note]]) becomes a link to its page");
      out.push({ ...node, text: label, marks: [...(node.marks ?? []), { type: "link", attrs: { href: PAGE_REF + page, target: null } }] });
    } else if (file && embed && allowBlocks) {
      out.push(
        isImagePath(file.path)
          ? { type: "image", attrs: { src: ATTACHMENT_REF + ctx.attach(file), alt: alias && !/^\d+(x\d+)?$/.test(alias) ? alias : null } }
          : attachmentNode(file, ctx),
      );
    } else if (file) {
      out.push({
        ...node,
        text: label,
        marks: [...(node.marks ?? []), { type: "link", attrs: { href: ATTACHMENT_REF + ctx.attach(file), target: null } }],
      });
    } else {
      ctx.skip(`the ${embed ? "embed" : "wikilink"} [[${match[2]}]] names nothing in the zip and is kept as text`);
      plain(label);
    }
  }
  plain(text.slice(at));
  return out;
}

function splitOnce(s: string, separator: string): [string, string | undefined] {
  const i = s.indexOf(separator);
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + 1)];
}

const CALLOUT = /^\[!([A-Za-z][\w-]{0,30})\]([+-]?)[ \t]*/;

/** `> [!KIND] Title` then the body: a panel with the title in bold as its first line. */
function callout(node: JSONContent, ctx: RewriteContext): JSONContent | null {
  const [first, ...rest] = node.content ?? [];
  const head = first?.type === "paragraph" ? first.content?.[0] : undefined;
  const match = head?.type === "text" ? CALLOUT.exec(head.text ?? "") : null;
  if (!first || !head || !match) return null;
  const type = match[1].toLowerCase();
  // The first paragraph, without the marker: its first line is the title, the rest the body.
  const firstInline = [{ ...head, text: head.text!.slice(match[0].length) }, ...(first.content ?? []).slice(1)].filter(
    (n) => n.type !== "text" || n.text,
  );
  const title: JSONContent[] = [];
  const body: JSONContent[] = [];
  let inTitle = true;
  for (const n of firstInline) {
    if (!inTitle) body.push(n);
    else if (n.type === "hardBreak") inTitle = false;
    else if (n.type === "text" && n.text!.includes("\n")) {
      const cut = n.text!.indexOf("\n");
      if (cut > 0) title.push({ ...n, text: n.text!.slice(0, cut) });
      if (n.text!.slice(cut + 1)) body.push({ ...n, text: n.text!.slice(cut + 1) });
      inTitle = false;
    } else title.push(n);
  }
  const bold = (n: JSONContent) =>
    n.type === "text" && !n.marks?.some((m) => m.type === "code") ? { ...n, marks: [...(n.marks ?? []), { type: "bold" }] } : n;
  const content = [
    ...(title.length ? [{ type: "paragraph", content: title.map(bold) }] : []),
    ...(body.length ? [{ type: "paragraph", content: body }] : []),
    ...rest,
  ];
  if (type === "quote" || type === "cite") return { ...node, content: blocks(content.length ? content : [{ type: "paragraph" }], ctx) };
  const kind = CALLOUT_KINDS[type];
  if (!kind) ctx.tally.add(`callouts of other kinds`, 'callout types without a panel of their own (e.g. "[!custom]") become info panels');
  if (match[2]) ctx.tally.add("folding callouts", "a callout that folds ([!NOTE]- or [!NOTE]+) becomes a panel that is always open");
  return { type: "panel", attrs: { kind: kind ?? "info" }, content: blocks(content.length ? content : [{ type: "paragraph" }], ctx) };
}
