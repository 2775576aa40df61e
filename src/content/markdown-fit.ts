/**
 * Fits what @tiptap/markdown parsed to the editor schema before the document is checked like
 * any contentJson. Markdown allows things the schema does not; each is repaired the way the
 * editor would show it, never by loosening the check that follows:
 *
 * - an image inside a paragraph or heading (the schema's images are blocks) splits the text
 *   block around it; a link around an image (a "badge") is lost;
 * - marks the schema does not combine keep the one ProseMirror would (bold `code` stays code),
 *   and a mark given twice counts once;
 * - content a node must start or end with is added (an empty list item gets its paragraph, an
 *   empty quote its empty paragraph), and text loose among blocks is wrapped in a paragraph;
 * - a code block's language is the first word of the fence's info string, when it is a
 *   language name (```js title="x" is js); otherwise none;
 * - character references in link and image addresses are decoded, as CommonMark says (marked
 *   leaves them), so `java&#x73;cript:` meets the URL check as the `javascript:` it means to
 *   any renderer that reads the address as HTML or CommonMark;
 * - empty text and links without a target are dropped.
 *
 * Anything else the schema refuses is left for the check, which names it.
 */
import type { JSONContent } from "@tiptap/core";
import { Fragment, Mark, type NodeType } from "@tiptap/pm/model";
import { invalid } from "../platform/errors";
import { MARKDOWN_FIELD } from "./markdown-lexer";
import { contentSchema } from "./schema";
import { MAX_DEPTH } from "./structure";

const LANGUAGE = /^[A-Za-z0-9_+#.-]{1,40}$/;
/** The named references that matter in an address (a scheme's colon, slashes, white space). */
const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  colon: ":",
  sol: "/",
  tab: "\t",
  newline: "\n",
  nbsp: "\u00a0",
};

/** Decodes numeric references (with or without the `;` HTML tolerates) and the names above. */
function decodeReferences(url: unknown): unknown {
  if (typeof url !== "string" || !url.includes("&")) return url;
  return url
    .replace(/&#(?:x([0-9a-f]{1,6})|(\d{1,7}));?/gi, (ref, hex: string | undefined, dec: string | undefined) => {
      const code = hex ? parseInt(hex, 16) : Number(dec);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ref;
    })
    .replace(/&([a-z]+);/gi, (ref, name: string) => (Object.hasOwn(NAMED, name.toLowerCase()) ? NAMED[name.toLowerCase()] : ref));
}

export function fitToSchema(doc: JSONContent): JSONContent {
  return fitNode(doc, 0)[0] ?? { type: "doc", content: [] };
}

function fitNode(node: JSONContent, depth: number): JSONContent[] {
  if (depth > MAX_DEPTH + 1) throw invalid(MARKDOWN_FIELD, `is nested too deeply (at most ${MAX_DEPTH} levels)`);
  const type = node.type ? contentSchema.nodes[node.type] : undefined;
  if (!type) return [node];
  if (type.isText) return node.text ? [{ ...node, marks: fitMarks(node.marks) }] : [];
  let attrs = node.attrs;
  if (node.type === "codeBlock") attrs = { ...attrs, language: language(attrs?.language) };
  if (node.type === "image") attrs = { ...attrs, src: decodeReferences(attrs?.src) };
  const children = (node.content ?? []).flatMap((child) => fitNode(child, depth + 1));
  if (type.inlineContent) return splitAroundBlocks(node, attrs, children);
  return [{ ...node, attrs, content: fitContent(type, children) }];
}

function language(value: unknown): string | null {
  const first = typeof value === "string" ? value.trim().split(/[\s{]/, 1)[0] : "";
  return LANGUAGE.test(first) ? first : null;
}

function fitMarks(marks: JSONContent["marks"]): JSONContent["marks"] {
  if (!marks?.length) return undefined;
  let set = Mark.none;
  for (const mark of marks) {
    const type = contentSchema.marks[mark.type];
    if (!type) return marks;
    if (mark.type === "link" && !mark.attrs?.href) continue;
    const attrs = mark.type === "link" ? { ...mark.attrs, href: decodeReferences(mark.attrs?.href) } : mark.attrs;
    set = type.create(attrs).addToSet(set);
  }
  return set.length ? set.map((mark) => mark.toJSON()) : undefined;
}

/** A text block holding block nodes, as the text blocks and blocks it reads as. */
function splitAroundBlocks(node: JSONContent, attrs: JSONContent["attrs"], children: JSONContent[]): JSONContent[] {
  const isBlock = (child: JSONContent) => Boolean(child.type && contentSchema.nodes[child.type]?.isBlock);
  if (!children.some(isBlock)) return [{ ...node, attrs, content: children }];
  const out: JSONContent[] = [];
  let run: JSONContent[] = [];
  const flush = () => {
    if (run.some((child) => child.type !== "text" || child.text!.trim() !== "")) out.push({ ...node, attrs, content: run });
    run = [];
  };
  for (const child of children) {
    if (!isBlock(child)) run.push(child);
    else {
      flush();
      out.push(child);
    }
  }
  flush();
  return out;
}

/** The children, with what the node's content expression requires filled in. */
function fitContent(type: NodeType, children: JSONContent[]): JSONContent[] {
  const out: JSONContent[] = [];
  let match = type.contentMatch;
  let loose: JSONContent[] = [];
  const place = (child: JSONContent) => {
    const childType = child.type ? contentSchema.nodes[child.type] : undefined;
    const next = childType && match.matchType(childType);
    if (next) {
      out.push(child);
      match = next;
      return;
    }
    const placeholder = childType?.createAndFill();
    const fill = placeholder && match.fillBefore(Fragment.from(placeholder));
    if (fill) {
      fill.forEach((filler) => out.push(filler.toJSON()));
      match = match.matchFragment(fill)!.matchType(childType!)!;
    }
    // Nothing fits: left in place for the check to name.
    out.push(child);
  };
  const flushLoose = () => {
    if (loose.length) place({ type: "paragraph", content: loose });
    loose = [];
  };
  for (const child of children) {
    const childType = child.type ? contentSchema.nodes[child.type] : undefined;
    if (childType?.isInline && !type.inlineContent) loose.push(child);
    else {
      flushLoose();
      place(child);
    }
  }
  flushLoose();
  match.fillBefore(Fragment.empty, true)?.forEach((filler) => out.push(filler.toJSON()));
  return out;
}
