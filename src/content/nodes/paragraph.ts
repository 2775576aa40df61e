import { getExtensionField, type MarkdownRendererHelpers, type RenderContext } from "@tiptap/core";
import Paragraph from "@tiptap/extension-paragraph";

/**
 * Text at the start of a line that Markdown would read as a block: "# ", "- ", "+ ", "1. ",
 * "1) ", a line of "=" or "-" (a heading underline or a rule), ":::" (a section). @tiptap/markdown
 * escapes the inline syntax in text (`*`, `_`, `[`, `<`…) but not these, so a paragraph "1. Go"
 * came back from its own Markdown as a list. A backslash before any punctuation is plain text
 * in CommonMark, so escaping costs nothing on the way back. White space that would make the
 * paragraph a code block (a tab, or four spaces) cannot be written at all, so it is dropped.
 */
const BLOCK_START =
  /(^|\n)([ \t]{0,3})(?:([#]{1,6}(?=[ \t\n]|$)|[-+](?=[ \t\n]|$)|[=-]+(?=[ \t]*(?:\n|$))|:(?=::))|(\d{1,9})([.)])(?=[ \t\n]|$))/g;

export function escapeBlockStarts(markdown: string): string {
  return markdown
    .replace(/^(?: {0,3}\t| {4})[ \t]*/, "")
    .replace(BLOCK_START, (_, line: string, indent: string, mark?: string, digits?: string, dot?: string) => {
      if (digits !== undefined) return `${line}${indent}${digits}\\${dot}`;
      // ":\::", not "\:::": @tiptap/markdown cuts a paragraph before any line starting ":::".
      return mark === ":" ? `${line}${indent}:\\` : `${line}${indent}\\${mark}`;
    });
}

type Render = (node: unknown, helpers: MarkdownRendererHelpers, context: RenderContext) => string;
const renderParagraph = getExtensionField<Render>(Paragraph, "renderMarkdown")!;

/** The paragraph of StarterKit, written to Markdown so that it reads back as a paragraph. */
export const MarkdownSafeParagraph = Paragraph.extend({
  renderMarkdown: (node, helpers, context) => escapeBlockStarts(renderParagraph(node, helpers, context)),
});
