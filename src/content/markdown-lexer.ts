/**
 * The Markdown lexer behind the conversions, bounded. marked (what @tiptap/markdown parses with)
 * is written for trusted text: on hostile input its inline rules scan the rest of a paragraph
 * at every step, and some nest without limit. Measured here, a megabyte of "[" ran for over nine
 * minutes, 32 KB of nested "*a " for 15 s, and 10,000 ">" overflowed the stack. The server has
 * one event loop, so each conversion is held (each a 400 on `contentMarkdown`) to:
 *
 * - a time budget that grows with the length of the input, as ordinary Markdown's parsing time
 *   does once markdown-linear.ts has made it linear; hostile input grows faster and runs out.
 *   It is checked before every block and inline step and every nested run;
 * - MAX_MARKDOWN_NESTING levels of quotes, lists and sections (a deeper document could not be
 *   stored anyway), and MAX_INLINE_NESTING of emphasis, links and the like;
 * - MAX_INLINE_RUN characters in one paragraph, heading, list item or table cell: marked
 *   rewrites such a run once per escaped character before stepping through it, which cannot be
 *   interrupted (~20 ms for the longest allowed);
 * - MAX_MARKDOWN_BLOCKS blocks and runs in all, which bounds the lexer's memory (a megabyte of
 *   one-word list items made 250 MB of tokens); a page holds at most MAX_NODES nodes anyway.
 */
import { decodeHtmlEntities } from "@tiptap/core";
import { Lexer, Marked, type Token } from "marked";
import { invalid } from "../platform/errors";
import { foldBlockHtml, foldInlineHtml, type HtmlReaders } from "./markdown-html";
import { linearExtension, linearTokenizers, paragraphLength } from "./markdown-linear";
import { MAX_DEPTH, MAX_NODES } from "./structure";

export const MARKDOWN_FIELD = "contentMarkdown";
export const MAX_MARKDOWN_NESTING = MAX_DEPTH;
export const MAX_INLINE_NESTING = 16;
export const MAX_INLINE_RUN = 16 * 1024;
export const MAX_MARKDOWN_BLOCKS = 2 * MAX_NODES;
/**
 * 0.5 s plus 2.5 s per MiB of input. Ordinary Markdown converts at 2 MiB per second or more
 * here (a megabyte of prose: 0.46 s, of hard-wrapped text: 0.03 s), so a slower machine has
 * room; the worst hostile megabyte holds the event loop for 3 s.
 */
export const markdownTimeBudget = (length: number) => 500 + Math.round((2500 * length) / (1024 * 1024));

/** The one conversion in progress: conversions are synchronous, so they never overlap. */
const run = { deadline: Infinity, budget: 0, blockDepth: 0, inlineDepth: 0, units: 0 };

function checkpoint(): void {
  if (performance.now() > run.deadline) {
    throw invalid(
      MARKDOWN_FIELD,
      `is too complex to convert (it took over ${(run.budget / 1000).toFixed(1)} s); long runs of ` +
        `unclosed brackets, emphasis or tags make it slow. Simplify it, or send contentJson`,
    );
  }
}

function count(): void {
  if (++run.units > MAX_MARKDOWN_BLOCKS) {
    throw invalid(
      MARKDOWN_FIELD,
      `has too many blocks (over ${MAX_MARKDOWN_BLOCKS} paragraphs, list items, table ` +
        `cells and the like; a page holds at most ${MAX_NODES} nodes)`,
    );
  }
}

const tooLong = (length: number) =>
  invalid(
    MARKDOWN_FIELD,
    `has a paragraph, heading, list item or table cell of ${length} characters (at most ` +
      `${MAX_INLINE_RUN}); separate paragraphs with a blank line, or put long text in a code block`,
  );

/** 1 in the server; see widenMarkdownClock. */
let clockScale = 1;

/**
 * Runs `fn` with the time budget multiplied by `scale`: for tests of the OTHER limits (blocks,
 * nodes, size), so that on a loaded machine it is the limit they check that refuses, not the clock.
 * An async `fn` (an import in a test) keeps the wider clock until it settles.
 */
export function widenMarkdownClock<T>(scale: number, fn: () => T): T {
  const was = clockScale;
  clockScale = scale;
  let result: T;
  try {
    result = fn();
  } catch (e) {
    clockScale = was;
    throw e;
  }
  if (result instanceof Promise) return result.finally(() => (clockScale = was)) as T;
  clockScale = was;
  return result;
}

/** Runs `convert` on `markdown` under the limits above; they are off again afterwards. */
export function withinMarkdownBudget<T>(markdown: string, convert: () => T): T {
  const budget = markdownTimeBudget(markdown.length) * clockScale;
  Object.assign(run, { deadline: performance.now() + budget, budget, blockDepth: 0, inlineDepth: 0, units: 0 });
  try {
    return convert();
  } finally {
    run.deadline = Infinity;
  }
}

class BoundedLexer extends Lexer {
  /** What an import's lexer does to each list of block tokens (raw HTML read, markdown-html.ts). */
  protected foldBlocks(tokens: Token[]): Token[] {
    return tokens;
  }

  /** The same for each list of inline tokens, before plain text is joined. */
  protected foldInline(tokens: Token[]): Token[] {
    return tokens;
  }

  override blockTokens(src: string, tokens?: any, lastParagraphClipped?: boolean): any {
    checkpoint();
    count();
    if (run.blockDepth >= MAX_MARKDOWN_NESTING) {
      throw invalid(MARKDOWN_FIELD, `is nested too deeply (at most ${MAX_MARKDOWN_NESTING} levels of quotes, lists and sections)`);
    }
    run.blockDepth++;
    try {
      return this.foldBlocks(super.blockTokens(src, tokens, lastParagraphClipped));
    } finally {
      run.blockDepth--;
    }
  }

  override inlineTokens(src: string, tokens?: Token[]): Token[] {
    checkpoint();
    count();
    if (src.length > MAX_INLINE_RUN) throw tooLong(src.length);
    if (run.inlineDepth >= MAX_INLINE_NESTING) {
      throw invalid(MARKDOWN_FIELD, `nests emphasis, links or other inline formatting too deeply (at most ${MAX_INLINE_NESTING} levels)`);
    }
    run.inlineDepth++;
    try {
      return joinText(this.foldInline(super.inlineTokens(src, tokens)));
    } finally {
      run.inlineDepth--;
    }
  }
}

/**
 * Plain text the way @tiptap/markdown reads it, in fewer tokens. It turns each text token
 * into a text node (HTML entities decoded) and each escape into one (as is), then joins
 * neighbours by splicing them out one at a time, which is quadratic in a paragraph of many
 * escapes ("\\*" 16,000 times took 4 s). A run of such tokens is handed over as one escape
 * holding the same text. A token alone is left as it is (a paragraph of one "&nbsp;" is how
 * an empty paragraph is written).
 *
 * Raw HTML counts as such text. Without a DOM, @tiptap/markdown keeps it as the characters
 * typed (it cannot parse it, and it must not run), but first looks for each tag's closing tag
 * among all the tokens after it, again quadratic.
 */
function joinText(tokens: Token[]): Token[] {
  const plain = (token: Token) => token.type === "text" || token.type === "escape" || token.type === "html";
  if (tokens.filter(plain).length < 2) return tokens;
  const out: Token[] = [];
  for (const token of tokens) {
    if (!plain(token)) {
      out.push(token);
      continue;
    }
    const text = token.type === "text" ? decodeHtmlEntities(token.text) : token.type === "escape" ? token.text : token.raw;
    const last = out.at(-1);
    if (last?.type === "escape") {
      last.raw += token.raw;
      last.text += text;
    } else out.push({ type: "escape", raw: token.raw, text });
  }
  // In place: marked's block tokens already hold this very array.
  tokens.length = 0;
  for (const token of out) tokens.push(token);
  return tokens;
}

/**
 * Asked at every block step (after @tiptap/markdown's tokenizers, before marked's own): the
 * checks, and paragraphs too long to read, refused before marked's paragraph rules see them.
 */
function blockStep(src: string): undefined {
  checkpoint();
  count();
  const length = paragraphLength(src);
  if (length > MAX_INLINE_RUN) throw tooLong(length);
  return undefined;
}

/**
 * A marked instance of our own (never the shared global one) with bounded lexers. The step
 * checks are tokenizers that match nothing; marked asks them at every step. With `html` (an
 * import's), raw HTML is read as what it means (markdown-html.ts) instead of kept as typed.
 */
export function boundedMarked(html?: HtmlReaders): Marked {
  const marked = new Marked({ gfm: true, tokenizer: linearTokenizers });
  const Bounded = html
    ? class extends BoundedLexer {
        protected override foldBlocks(tokens: Token[]): Token[] {
          return foldBlockHtml(tokens, html);
        }
        protected override foldInline(tokens: Token[]): Token[] {
          return foldInlineHtml(tokens, html);
        }
      }
    : BoundedLexer;
  // marked types Lexer generically over its output; ours is the string lexer it defaults to.
  marked.Lexer = Bounded as unknown as typeof Lexer;
  // @tiptap/markdown lexes nested task-list content with marked.lexer(); keep that bounded too.
  marked.lexer = (src, options) => new Bounded(options ?? marked.defaults).lex(src);
  const use = marked.use.bind(marked);
  marked.use = (...extensions) =>
    use(...extensions.map((e) => (e.extensions ? { ...e, extensions: e.extensions.map(linearExtension) } : e)));
  marked.use({
    extensions: [
      { name: "cairnBlockStep", level: "block", tokenizer: blockStep },
      { name: "cairnInlineStep", level: "inline", tokenizer: () => (checkpoint(), undefined) },
    ],
  });
  return marked;
}
