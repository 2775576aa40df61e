/**
 * Markdown brought in from elsewhere (an import's files), read so that one construct the
 * converter cannot read never empties a page: the rest of the page comes in, the construct is
 * kept as its text, and `keptAsText` names it for the import's report. The pages API refuses
 * such input instead (markdown.ts: its caller is there to correct it; an import has nobody to ask
 * half-way through a zip and reports what it did).
 *
 * The same parser and limits as contentMarkdown (markdown-lexer.ts), with raw HTML read as what it
 * means (markdown-html.ts). Then:
 *
 * 1. the whole document is converted and checked; a node the check refuses (an attribute it
 *    cannot hold, an address with a scheme it does not allow) is replaced by its text, or a
 *    mark it refuses dropped (its text stays), and the check runs again;
 * 2. a construct the parser itself cannot take (a paragraph longer than a paragraph may be,
 *    nesting deeper than a page may hold, anything the parser throws) makes the document be
 *    read again block by block (blocks are what blank lines separate, outside code fences):
 *    each block that still fails is kept as its lines of text.
 *
 * Limits of the whole document stay refusals (too large, too many blocks, past the time
 * budget): those are the document's, not a construct's.
 */
import { Extension, type JSONContent } from "@tiptap/core";
import { MarkdownManager } from "@tiptap/markdown";
import type { marked } from "marked";
import { AppError, invalid } from "../platform/errors";
import { contentExtensions } from "./extensions";
import { fitToSchema } from "./markdown-fit";
import { HTML_DETAILS_TOKEN, HTML_MARK_TOKEN, HTML_NODES_TOKEN, type HtmlReaders } from "./markdown-html";
import { boundedMarked, MARKDOWN_FIELD, markdownTimeBudget, withinMarkdownBudget } from "./markdown-lexer";
import { MAX_MARKDOWN_BYTES } from "./markdown";
import { repairToSchema } from "./repair";

export type { HtmlReaders, ImageAttrs } from "./markdown-html";

export interface LenientMarkdown {
  doc: JSONContent;
  /** Each construct kept as text: an excerpt and why. */
  keptAsText: string[];
}

/** The tokens markdown-html.ts leaves, handed to @tiptap/markdown as the nodes they are. */
const HtmlTokens = [
  Extension.create({
    name: HTML_NODES_TOKEN,
    markdownTokenName: HTML_NODES_TOKEN,
    parseMarkdown: (token) => (token as unknown as { nodes: JSONContent[] }).nodes,
  }),
  Extension.create({
    name: HTML_MARK_TOKEN,
    markdownTokenName: HTML_MARK_TOKEN,
    parseMarkdown: (token, h) => h.applyMark((token as unknown as { mark: string }).mark, h.parseInline(token.tokens ?? [])),
  }),
  Extension.create({
    name: HTML_DETAILS_TOKEN,
    markdownTokenName: HTML_DETAILS_TOKEN,
    parseMarkdown: (token, h) => ({
      type: "details",
      content: [
        { type: "detailsSummary", content: (token as unknown as { summary: JSONContent[] }).summary },
        { type: "detailsContent", content: h.parseChildren(token.tokens ?? []) },
      ],
    }),
  }),
];

/** The limits of a whole document: not a construct's, so never kept as text. */
const WHOLE_DOCUMENT = new RegExp(
  "^(is too large|is too complex|has too many blocks|" +
    "converts to a document the editor cannot hold: the document (is too large|has too many))",
);
/** A reader of Markdown from elsewhere; `html` reads its raw HTML (the importer's, with parse5). */
export function lenientMarkdownReader(html: HtmlReaders): (markdown: string) => LenientMarkdown {
  const manager = new MarkdownManager({
    extensions: [...contentExtensions, ...HtmlTokens],
    // MarkdownManager types its option as the global `marked`; an instance has the same API.
    marked: boundedMarked(html) as unknown as typeof marked,
  });
  const convert = (markdown: string, notes: string[]): JSONContent =>
    repairToSchema(
      withinMarkdownBudget(markdown, () => fitToSchema(manager.parse(markdown))),
      notes,
    );

  return (markdown) => {
    if (Buffer.byteLength(markdown, "utf8") > MAX_MARKDOWN_BYTES) {
      throw invalid(MARKDOWN_FIELD, `is too large (${Buffer.byteLength(markdown, "utf8")} bytes; at most ${MAX_MARKDOWN_BYTES})`);
    }
    const keptAsText: string[] = [];
    try {
      return { doc: convert(markdown, keptAsText), keptAsText };
    } catch (error) {
      if (wholeDocument(error)) throw error;
    }
    // A construct the parser cannot take: block by block, within the budget of the whole.
    keptAsText.length = 0;
    const deadline = performance.now() + markdownTimeBudget(markdown.length);
    const { chunks, definitions } = blocksOf(markdown);
    const content: JSONContent[] = [];
    for (const chunk of chunks) {
      if (performance.now() < deadline) {
        try {
          const blocks = convert(definitions ? `${chunk}\n\n${definitions}` : chunk, keptAsText).content ?? [];
          // A block of nothing to show (a comment, a closing tag) adds no empty paragraph.
          if (!(blocks.length === 1 && blocks[0].type === "paragraph" && !blocks[0].content?.length)) content.push(...blocks);
          continue;
        } catch (error) {
          if (error instanceof AppError && error.status >= 500) throw error;
          keptAsText.push(`"${excerpt(chunk)}" (${reasonOf(error)})`);
        }
      } else keptAsText.push(`"${excerpt(chunk)}" (the page took too long to convert; the rest is kept as text)`);
      content.push(linesAsText(chunk));
    }
    return { doc: { type: "doc", content: content.length ? content : [{ type: "paragraph" }] }, keptAsText };
  };
}

function reasonOf(error: unknown): string {
  const message =
    error instanceof AppError
      ? (error.extras.errors?.[MARKDOWN_FIELD]?.[0] ?? error.extras.errors?.contentJson?.[0] ?? error.message)
      : String((error as Error)?.message ?? error);
  return message.replace(/^contentMarkdown: /, "").slice(0, 200);
}

function wholeDocument(error: unknown): boolean {
  return (
    error instanceof AppError &&
    error.extras.field === MARKDOWN_FIELD &&
    WHOLE_DOCUMENT.test(error.extras.errors?.[MARKDOWN_FIELD]?.[0] ?? "")
  );
}

function excerpt(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 60)}…` : line;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const DEFINITION = /^ {0,3}\[[^\]\n]{1,999}\]:[ \t]*\S/;

/**
 * The document's blocks as blank lines separate them outside code fences and HTML `<details>`
 * (which hold Markdown between their tags), and its link definitions.
 */
function blocksOf(markdown: string): { chunks: string[]; definitions: string } {
  const chunks: string[] = [];
  const definitions: string[] = [];
  let lines: string[] = [];
  let fence: string | null = null;
  let details = 0;
  const flush = () => {
    if (lines.some((l) => l.trim())) chunks.push(lines.join("\n"));
    lines = [];
  };
  for (const line of markdown.split(/\r?\n/)) {
    const open = FENCE.exec(line)?.[1];
    if (fence) {
      if (open && open[0] === fence[0] && open.length >= fence.length && !line.trim().slice(open.length).trim()) fence = null;
      lines.push(line);
    } else if (open) {
      fence = open;
      lines.push(line);
    } else if (!line.trim()) {
      if (details <= 0) flush();
      else lines.push(line);
    } else {
      details += (line.match(/<details\b/gi)?.length ?? 0) - (line.match(/<\/details\s*>/gi)?.length ?? 0);
      if (DEFINITION.test(line)) definitions.push(line);
      lines.push(line);
    }
  }
  flush();
  return { chunks, definitions: definitions.join("\n") };
}

/** A block kept as the lines typed. */
function linesAsText(chunk: string): JSONContent {
  const content: JSONContent[] = [];
  for (const [i, line] of chunk.split("\n").entries()) {
    if (i > 0) content.push({ type: "hardBreak" });
    if (line) content.push({ type: "text", text: line });
  }
  return { type: "paragraph", content };
}
