/**
 * A page as a Markdown file for people (GET /api/pages/{id}/export?format=markdown): the title
 * as `# `, then the body in the one schema's Markdown (markdown.ts: GFM tables, task lists,
 * fenced code with its language, panels `:::panel {kind="…"}`, expands `:::details`), changed
 * first where the product's own forms would mean nothing outside Cairn:
 * - a mention is its name as text, `@Alice Chen`;
 * - an attachment is a link line `[budget.xlsx](<base>/api/attachments/<id>/download)`, which a
 *   Markdown import can turn back into an attachment;
 * - a page link (node) is its target's current title, linked to where `pageLink` says; a page
 *   the exporting person may not read is UNSEEN_PAGE as plain text;
 * - relative links and image sources become absolute against the instance's address, so they
 *   still lead somewhere from a file on disk;
 * - a link whose scheme is not one of urls.ts's keeps its text and loses its link; such an image
 *   becomes its alt text (the server refuses both when stored; a file is checked again anyway).
 */
import type { JSONContent } from "@tiptap/core";
import { UNSEEN_PAGE } from "./page-links";
import { contentToMarkdown } from "./markdown";
import { IMAGE_SCHEMES, linkTarget, urlProblem } from "./urls";

export interface MarkdownExportOptions {
  /** The instance's address (`https://wiki.example.com`), for absolute links; none keeps them relative. */
  baseUrl?: string | null;
  /** A mention's name (without the @). Default: its stored label, else its id. */
  mentionName?: (id: string, label: string | null) => string;
  /** A page link's target: its current title and href, or null (unseen). Default: unseen. */
  pageLink?: (pageId: string) => { title: string; href: string | null } | null;
}

/** `# Title` and the document, as a Markdown file ending in one newline. */
export function pageToMarkdown(title: string, doc: JSONContent, opts: MarkdownExportOptions = {}): string {
  const body = contentToMarkdown(JSON.stringify(forReaders(doc, opts))).trimEnd();
  const heading = `# ${escapeInline(title.trim() || "Untitled")}`;
  return body ? `${heading}\n\n${body}\n` : `${heading}\n`;
}

/** Markdown's inline punctuation in a title, escaped so the title reads as typed. */
const escapeInline = (text: string) => text.replace(/[\\`*_[\]<>~=+|]/g, (c) => `\\${c}`);

const absolute = (url: string, base: string | null | undefined) =>
  base && url.startsWith("/") && !url.startsWith("//") ? base.replace(/\/+$/, "") + url : url;

/** The document with mentions, attachments, links and images as a file outside Cairn needs them. */
export function forReaders(doc: JSONContent, opts: MarkdownExportOptions = {}): JSONContent {
  const visit = (node: JSONContent): JSONContent[] => {
    const a = (node.attrs ?? {}) as Record<string, unknown>;
    switch (node.type) {
      case "mention": {
        const id = String(a.id ?? "");
        const label = a.label == null ? null : String(a.label);
        const name = opts.mentionName ? opts.mentionName(id, label) : (label ?? id);
        return [withMarks({ type: "text", text: `@${name}` }, node, opts.baseUrl)];
      }
      case "pageLink": {
        const target = opts.pageLink?.(String(a.pageId ?? "")) ?? null;
        if (!target) return [withMarks({ type: "text", text: UNSEEN_PAGE }, node, opts.baseUrl)];
        const title = target.title.trim() || "Untitled";
        const link = target.href ? [{ type: "link", attrs: { href: target.href } }] : [];
        const marks = [...(node.marks ?? []).filter((m) => m.type !== "link"), ...link];
        return [withMarks({ type: "text", text: title }, { ...node, marks }, opts.baseUrl)];
      }
      case "attachment": {
        const id = typeof a.attachmentId === "string" ? a.attachmentId : "";
        const name = String(a.filename ?? "") || "Attachment";
        const link = id
          ? [{ type: "link", attrs: { href: absolute(`/api/attachments/${encodeURIComponent(id)}/download`, opts.baseUrl) } }]
          : undefined;
        return [{ type: "paragraph", content: [{ type: "text", text: name, ...(link ? { marks: link } : {}) }] }];
      }
      case "image": {
        if (urlProblem(a.src, IMAGE_SCHEMES)) {
          const alt = typeof a.alt === "string" && a.alt.trim() ? a.alt : "";
          return alt ? [{ type: "paragraph", content: [{ type: "text", text: alt }] }] : [];
        }
        return [{ ...node, attrs: { ...a, src: absolute(a.src as string, opts.baseUrl) } }];
      }
      case "text":
        return [withMarks(node, node, opts.baseUrl)];
      default:
        return node.content ? [{ ...node, content: node.content.flatMap(visit) }] : [node];
    }
  };
  return visit(doc)[0] ?? { type: "doc", content: [] };
}

/** `node` with `from`'s marks, a link mark kept only when its scheme is allowed (made absolute). */
function withMarks(node: JSONContent, from: JSONContent, base: string | null | undefined): JSONContent {
  if (!from.marks?.length) return node.marks ? { ...node, marks: undefined } : node;
  const marks = from.marks.flatMap((mark) => {
    if (mark.type !== "link") return [mark];
    const target = linkTarget(mark.attrs?.href);
    if (!target) return [];
    return [{ ...mark, attrs: { ...mark.attrs, href: target.kind === "internal" ? absolute(target.href, base) : target.href } }];
  });
  return { ...node, marks: marks.length ? marks : undefined };
}
