/**
 * Keeps Markdown parsing linear in the length of a document. Measured here, each fix below
 * took a megabyte of ordinary Markdown from seconds (or minutes) to tens of milliseconds:
 *
 * - @tiptap/markdown's block tokenizers look at the whole rest of the document at every block
 *   (a `start` that searches or splits all of it; tokenizers that split it into lines before
 *   looking at the first two). A `start` only matters up to the end of the paragraph being cut,
 *   since marked ends the paragraph at the blank line anyway, so it sees no more than that; the
 *   line-splitting tokenizers are asked only when the first lines could open their block (the
 *   same tests they make first, so nothing they would accept is missed).
 * - marked's setext-heading rule ("Title" over "=====") costs more than linear time in the
 *   lines of a paragraph (1 MB of 100-line paragraphs: 4.7 s). It is tried only when a line
 *   starting with = or - comes before the paragraph's blank line.
 * - marked's paragraph rule is quadratic in the lines of one paragraph (96 KB of short lines:
 *   0.2 s, a megabyte: minutes). A paragraph longer than MAX_INLINE_RUN would be refused when
 *   its text is read, so it is refused before marked looks at it.
 */
import type { MarkedExtension, Token, TokenizerObject } from "marked";

type Extension = NonNullable<MarkedExtension["extensions"]>[number];

/** Where the first blank line (nothing but white space) of `src` starts, or its length. */
export function blankLine(src: string): number {
  const blank = /\n[^\S\n]*\n/.exec(src);
  return blank ? blank.index : src.length;
}

const ORDERED_ITEM = /^[^\S\n]*[0-9A-Za-z]+[.)][^\S\n]/;

const OPENS: Record<string, (src: string) => boolean> = {
  // collectOrderedListItems stops at once unless the first line is "1. text" (or "a)", "iv.").
  orderedList: (src) => ORDERED_ITEM.test(src),
  // parseIndentedBlocks skips blank lines, then wants "- [ ] text".
  taskList: (src) => /^\s*[-+*]\s+\[[ xX]\]\s/.test(src),
  // A table's second line is its delimiter row, with a dash and a pipe.
  table: (src) => {
    const first = src.indexOf("\n");
    if (first < 0) return false;
    const end = src.indexOf("\n", first + 1);
    const second = src.slice(first + 1, end < 0 ? src.length : end);
    return second.includes("|") && /^[ \t|:]*-[ \t|:-]*$/.test(second);
  },
};

/** A block tokenizer of @tiptap/markdown's, made to look no further than it needs to. */
export function linearExtension(extension: Extension): Extension {
  if (!("level" in extension) || extension.level !== "block") return extension;
  const { start, tokenizer } = extension;
  const opens = OPENS[extension.name];
  return {
    ...extension,
    start:
      start &&
      function (this: unknown, src: string) {
        return start.call(this as never, src.slice(0, blankLine(src)));
      },
    tokenizer: opens
      ? function (this: unknown, src: string, tokens: Token[]) {
          return opens(src) ? tokenizer.call(this as never, src, tokens) : undefined;
        }
      : tokenizer,
  };
}

/** marked's own tokenizers, overridden: `false` hands over to marked's, `undefined` matches nothing. */
export const linearTokenizers: TokenizerObject = {
  lheading(src: string) {
    return /\n {0,3}[=-]/.test(src.slice(0, blankLine(src))) ? false : undefined;
  },
};

/** A first line that may open something other than a paragraph (or indented code). */
const NOT_PARAGRAPH = /^(?: {4}| {0,3}\t|[^\S\n]*(?:[-*+>#<|:=_~`[\d]|\n|$))/;
/** A line that could end a paragraph: blank, or opening a block that may interrupt one. */
const PARAGRAPH_END = /\n[^\S\n]*(?:\n|[-*+>#<|:=_~`\d])/;

/**
 * How long the paragraph starting `src` is at least, or 0 when `src` may not start one. The
 * lines it counts all belong to the paragraph (it stops at any line that might not).
 */
export function paragraphLength(src: string): number {
  if (NOT_PARAGRAPH.test(src) || ORDERED_ITEM.test(src)) return 0;
  const end = PARAGRAPH_END.exec(src);
  return end ? end.index : src.length;
}
