/**
 * Page bodies as Markdown, both ways, with the one editor schema (extensions.ts) through
 * @tiptap/markdown's MarkdownManager. The manager needs no DOM: it lexes with marked and builds
 * the document from each extension's own Markdown rules. (The `Markdown` editor extension
 * would need an Editor; raw HTML would need a DOM, and without one the manager keeps it as the
 * literal text typed, which is what a page should show anyway.)
 *
 * Markdown in: bounded lexing (markdown-lexer.ts), then fitted to the schema
 * (markdown-fit.ts), then checked exactly as a contentJson is (validate.ts), so the same limits
 * apply and nothing is stored that the editor could not open. Problems are 400s on
 * `contentMarkdown`.
 *
 * Markdown out: CommonMark with GFM tables, task lists and strikethrough, and the extensions'
 * own forms for the rest: `++underline++`, `==highlight==`, mentions `[@ id="…" label="…"]`,
 * and fenced sections for panels (`:::panel {kind="…"}` … `:::`), expands (`:::details`) and
 * attachments (`:::attachment {…} :::`). What it cannot hold is in LOSSY_IN_MARKDOWN.
 */
import type { JSONContent } from "@tiptap/core";
import { MarkdownManager } from "@tiptap/markdown";
import type { marked } from "marked";
import { AppError, invalid } from "../platform/errors";
import { contentExtensions } from "./extensions";
import { fitToSchema } from "./markdown-fit";
import { boundedMarked, MARKDOWN_FIELD, withinMarkdownBudget } from "./markdown-lexer";
import { checkContentJson } from "./validate";

/** 1 MiB of UTF-8: a long page is a few tens of KB of Markdown; its document may be 2 MiB. */
export const MAX_MARKDOWN_BYTES = 1024 * 1024;

/**
 * What a page loses on its way to Markdown (and so on a round trip through it). Everything else
 * comes back as it was: every block of the editor schema (docs/decisions.md), and bold, italic,
 * strike, code, links, underline (`++u++`) and highlight (`==h==`).
 */
export const LOSSY_IN_MARKDOWN = [
  "subscript and superscript become plain text",
  "inline comment anchors and tracked changes (insertions and deletions) become plain " +
    "text, deleted words included; their ids, authors and times are lost",
  "table cells merged across rows or columns are split (GFM tables have no spans); " +
    "column widths are lost and each column has one alignment",
  "image width and height are lost",
  'a paragraph\'s leading white space is dropped; text holding "==…==" or "++…++" comes back highlighted or underlined',
  'a mention label holding " or ] is shortened (its id is kept); a link address ' +
    "holding spaces or unbalanced parentheses comes back as text",
] as const;

const manager = new MarkdownManager({
  extensions: contentExtensions,
  // MarkdownManager types its option as the global `marked`; an instance has the same API.
  marked: boundedMarked() as unknown as typeof marked,
});

/**
 * Checks a contentMarkdown from a request and converts it. Answers what checkContentJson
 * answers: the normalised document JSON to store and its plain text for search.
 */
export function checkContentMarkdown(markdown: unknown): { json: string; text: string } {
  if (typeof markdown !== "string") throw invalid(MARKDOWN_FIELD, "must be a string of Markdown");
  if (markdown.length > MAX_MARKDOWN_BYTES || Buffer.byteLength(markdown, "utf8") > MAX_MARKDOWN_BYTES) {
    throw invalid(MARKDOWN_FIELD, `is too large (${Buffer.byteLength(markdown, "utf8")} bytes; at most ${MAX_MARKDOWN_BYTES})`);
  }
  const doc = parse(markdown);
  try {
    return checkContentJson(JSON.stringify(doc));
  } catch (error) {
    // The check names contentJson and a path in the converted document; say which field it came from.
    if (error instanceof AppError && error.extras.field === "contentJson") {
      throw invalid(
        MARKDOWN_FIELD,
        `converts to a document the editor cannot hold: ${error.extras.errors?.contentJson?.[0] ?? error.message}`,
      );
    }
    throw error;
  }
}

function parse(markdown: string): JSONContent {
  try {
    return withinMarkdownBudget(markdown, () => fitToSchema(manager.parse(markdown)));
  } catch (error) {
    if (error instanceof AppError) throw error;
    // Whatever else the parser throws on some input is that input's problem, never a 500.
    if (error instanceof RangeError) throw invalid(MARKDOWN_FIELD, "is nested too deeply to convert");
    throw invalid(MARKDOWN_FIELD, `could not be converted (${String((error as Error)?.message ?? error).slice(0, 200)})`);
  }
}

/** A stored document (contentJson, already checked when it was stored) as Markdown. */
export function contentToMarkdown(contentJson: string): string {
  const markdown = manager.serialize(JSON.parse(contentJson) as JSONContent);
  return markdown.endsWith("\n") ? markdown : `${markdown}\n`;
}
