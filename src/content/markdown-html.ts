/**
 * Raw HTML inside Markdown, read as what it means, for documents brought in from elsewhere
 * (READMEs and docs folders write `<img>`, `<br>`, `<details>`, `<p align="center">`, `<a>`,
 * `<sup>`). The pages API keeps raw HTML as the characters typed (markdown.ts); an import reads
 * it through these folds of marked's tokens, applied by the import's lexer as it lexes:
 *
 * - inline: an element the schema has a mark for wraps the tokens between its tags in that mark
 *   (`<a href>` a link, `<b>` bold, `<sup>` superscript, `<code>` code…); `<br>` is a line break;
 *   `<img>` an image (through `image`, which may answer inline text instead, e.g. a link for an
 *   image from another site). Other HTML elements (`<span>`, `<font>`, `<picture>`) leave their
 *   content; a tag that is no HTML element (`Array<string>`, `<your-token>`) stays as typed.
 *   Comments are dropped.
 * - blocks: an HTML block goes to `blocks` (the importer parses it as a browser would); a
 *   `<details>` opened in one HTML block and closed in a later one holds the Markdown between.
 *
 * Each fold is one pass over a token list (a stack of open tags), so it costs no more than
 * the tokens do.
 */
import type { JSONContent } from "@tiptap/core";
import type { Token, Tokens } from "marked";

export interface HtmlReaders {
  /** An HTML block as blocks (loose inline content is fitted afterwards). */
  blocks(html: string): JSONContent[];
  /** An image (HTML or Markdown, `href` the link around it): its nodes, or null for the image block itself. */
  image(attrs: ImageAttrs, href: string | null): JSONContent[] | null;
}

export interface ImageAttrs {
  src: string;
  alt: string | null;
  title: string | null;
  width?: number | null;
  height?: number | null;
}

/** The token a fold leaves for nodes it made: @tiptap/markdown hands them over as they are. */
export const HTML_NODES_TOKEN = "cairnHtmlNodes";
/** A mark wrapped around inline tokens (one the schema has and Markdown does not write). */
export const HTML_MARK_TOKEN = "cairnHtmlMark";
/** `<details>` around Markdown blocks. */
export const HTML_DETAILS_TOKEN = "cairnHtmlDetails";

/** Every element name of HTML (the living standard's, and the obsolete ones READMEs still use). */
const HTML_ELEMENTS = new Set(
  (
    "a abbr address area article aside audio b base bdi bdo blockquote body br button " +
    "canvas caption center cite code col colgroup data datalist dd del " +
    "details dfn dialog div dl dt em embed fieldset figcaption figure font footer form h1 h2 " +
    "h3 h4 h5 h6 head header hgroup hr html i iframe img input ins kbd " +
    "label legend li link main map mark menu meta meter nav noscript object ol optgroup " +
    "option output p picture pre progress q rp rt ruby s samp script " +
    "search section select slot small source span strike strong style sub summary sup table tbody td " +
    "template textarea tfoot th thead time title tr track tt u ul var video wbr"
  ).split(" "),
);
/** Open inline tags at once (markdown-lexer.ts allows as many levels of Markdown's own). */
const MAX_OPEN = 16;
const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const MARKS: Record<string, { type: string } | "strong" | "em" | "del" | "code"> = {
  b: "strong",
  strong: "strong",
  i: "em",
  em: "em",
  cite: "em",
  dfn: "em",
  var: "em",
  s: "del",
  del: "del",
  strike: "del",
  code: "code",
  kbd: "code",
  tt: "code",
  samp: "code",
  u: { type: "underline" },
  ins: { type: "underline" },
  mark: { type: "highlight" },
  sup: { type: "superscript" },
  sub: { type: "subscript" },
};
/** Elements whose content is never text to show. */
const HIDDEN = new Set(["script", "style", "template", "noscript", "title", "head"]);

interface Tag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  attrs: Map<string, string>;
}

const TAG = /^<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>$/;
const ATTR = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** One tag as marked cuts inline HTML (a tag, a comment or a declaration each). */
export function parseTag(raw: string): Tag | null {
  const m = TAG.exec(raw.trim());
  if (!m) return null;
  const attrs = new Map<string, string>();
  for (const a of m[3].matchAll(ATTR)) attrs.set(a[1].toLowerCase(), decodeEntities(a[2] ?? a[3] ?? a[4] ?? ""));
  return { name: m[2].toLowerCase(), closing: m[1] === "/", selfClosing: m[4] === "/", attrs };
}

function decodeEntities(value: string): string {
  return value.replace(
    /&(amp|lt|gt|quot|#39|apos);/g,
    (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'" })[e]!,
  );
}

const dimension = (value: string | undefined) => (value && /^\d{1,5}$/.test(value) ? Number(value) : null);

function imageAttrs(tag: Tag): ImageAttrs {
  return {
    src: tag.attrs.get("src") ?? "",
    alt: tag.attrs.get("alt") || null,
    title: tag.attrs.get("title") || null,
    width: dimension(tag.attrs.get("width")),
    height: dimension(tag.attrs.get("height")),
  };
}

const nodesToken = (nodes: JSONContent[], raw = ""): Token => ({ type: HTML_NODES_TOKEN, raw, nodes }) as unknown as Token;
const textToken = (text: string): Token => ({ type: "text", raw: text, text }) as Token;

function imageToken(attrs: ImageAttrs, href: string | null, readers: HtmlReaders): Token {
  return nodesToken(
    readers.image(attrs, href) ?? [
      {
        type: "image",
        attrs: { src: attrs.src, alt: attrs.alt, title: attrs.title, width: attrs.width ?? null, height: attrs.height ?? null },
      },
    ],
  );
}

/** The text a list of inline tokens shows (for `<code>`, whose content is literal). */
function plain(tokens: Token[]): string {
  return tokens.map((t) => ("tokens" in t && t.tokens ? plain(t.tokens) : "text" in t ? String(t.text) : "")).join("");
}

/**
 * A link holding nothing but images (a badge: `[![npm](badge.svg)](https://npm…)`) hands its
 * address to each image, which the schema could not hold inside a link.
 */
function badge(token: Tokens.Link, readers: HtmlReaders): Token[] | null {
  const inner = token.tokens.filter((t) => !(t.type === "text" && !t.text.trim()));
  if (!inner.length || !inner.every((t) => t.type === "image" || (t.type === HTML_NODES_TOKEN && (t as any).image))) return null;
  return inner.map((t) =>
    t.type === "image"
      ? imageToken({ src: t.href, alt: t.text || null, title: t.title ?? null }, token.href, readers)
      : imageToken((t as any).image, token.href, readers),
  );
}

/** Inline HTML tokens of one list, folded in place. */
export function foldInlineHtml(tokens: Token[], readers: HtmlReaders): Token[] {
  if (!tokens.some((t) => t.type === "html" || t.type === "image" || t.type === "link")) return tokens;
  const out: Token[] = [];
  const open: { tag: Tag; at: number }[] = [];
  for (const token of tokens) {
    if (token.type === "image") {
      out.push(imageToken({ src: token.href, alt: token.text || null, title: token.title ?? null }, null, readers));
      continue;
    }
    if (token.type === "link") {
      out.push(...(badge(token as Tokens.Link, readers) ?? [token]));
      continue;
    }
    if (token.type !== "html") {
      out.push(token);
      continue;
    }
    const raw = token.raw;
    if (/^<!--/.test(raw) || /^<[!?]/.test(raw)) continue;
    const tag = parseTag(raw);
    if (!tag || !HTML_ELEMENTS.has(tag.name)) {
      out.push(textToken(raw));
      continue;
    }
    if (tag.name === "br") out.push(nodesToken([{ type: "hardBreak" }], raw));
    else if (tag.name === "img") {
      const attrs = imageAttrs(tag);
      if (attrs.src) out.push(Object.assign(imageToken(attrs, null, readers), { image: attrs }));
      else if (attrs.alt) out.push(textToken(attrs.alt));
    } else if (VOID.has(tag.name) || tag.selfClosing) {
      // Nothing to show (<wbr>, <source>, <input>…).
    } else if (!tag.closing) {
      // Deeper than Markdown's own inline nesting may go: the tag is dropped, its content kept.
      if (open.length < MAX_OPEN) open.push({ tag, at: out.length });
    } else {
      let i = open.length - 1;
      while (i >= 0 && open[i].tag.name !== tag.name) i--;
      if (i < 0) continue;
      const opened = open[i].tag;
      const inner = out.splice(open[i].at);
      open.length = i;
      out.push(...wrap(opened, inner, readers));
    }
  }
  tokens.length = 0;
  tokens.push(...out);
  return tokens;
}

function wrap(tag: Tag, inner: Token[], readers: HtmlReaders): Token[] {
  if (HIDDEN.has(tag.name)) return [];
  if (tag.name === "a") {
    const href = tag.attrs.get("href");
    if (!href) return inner;
    const link = { type: "link", raw: "", href, title: tag.attrs.get("title") ?? null, text: plain(inner), tokens: inner } as Tokens.Link;
    return badge(link, readers) ?? [link];
  }
  const mark = MARKS[tag.name];
  if (!mark) return inner;
  if (mark === "code") return [{ type: "codespan", raw: "", text: plain(inner) } as Token];
  if (typeof mark === "string") return [{ type: mark, raw: "", text: plain(inner), tokens: inner } as Token];
  return [{ type: HTML_MARK_TOKEN, raw: "", mark: mark.type, tokens: inner } as unknown as Token];
}

const DETAILS_PARTS = /<details\b[^>]*>|<\/details\s*>|<summary\b[^>]*>([\s\S]*?)<\/summary\s*>/gi;

interface DetailsFrame {
  summary: JSONContent[];
  tokens: Token[];
}

/** Block HTML tokens of one list, folded in place (a `<details>` may span several). */
export function foldBlockHtml(tokens: Token[], readers: HtmlReaders): Token[] {
  if (!tokens.some((t) => t.type === "html")) return tokens;
  const out: Token[] = [];
  const frames: DetailsFrame[] = [];
  const target = () => frames.at(-1)?.tokens ?? out;
  const html = (raw: string) => {
    if (!raw.trim()) return;
    const nodes = readers.blocks(raw);
    if (nodes.length) target().push(nodesToken(nodes, raw));
  };
  const close = () => {
    const frame = frames.pop()!;
    target().push({ type: HTML_DETAILS_TOKEN, raw: "", summary: frame.summary, tokens: frame.tokens } as unknown as Token);
  };
  for (const token of tokens) {
    if (token.type !== "html") {
      target().push(token);
      continue;
    }
    const raw = token.raw;
    // A <details> that opens and closes here is the block reader's; one left open gathers what follows.
    let depth = 0;
    let at = 0;
    let start = -1;
    for (const m of raw.matchAll(DETAILS_PARTS)) {
      const part = m[0].toLowerCase();
      if (part.startsWith("<details")) {
        if (depth++ === 0) {
          html(raw.slice(at, m.index));
          start = m.index;
          at = m.index + m[0].length;
        }
      } else if (part.startsWith("</details")) {
        if (depth > 0 && --depth === 0) {
          html(raw.slice(start, m.index + m[0].length));
          at = m.index + m[0].length;
          start = -1;
        } else if (depth === 0 && frames.length) {
          html(raw.slice(at, m.index));
          close();
          at = m.index + m[0].length;
        }
      }
    }
    if (depth > 0) {
      // Opened and not closed in this block: the details holds the Markdown that follows.
      const rest = raw.slice(at);
      const summary = /<summary\b[^>]*>([\s\S]*?)<\/summary\s*>/i.exec(rest);
      frames.push({ summary: summary ? readers.blocks(summary[1]).flatMap(inlineOf) : [], tokens: [] });
      html(summary ? rest.slice(summary.index + summary[0].length) : rest);
      for (let d = 1; d < depth; d++) frames.push({ summary: [], tokens: [] });
    } else html(raw.slice(at));
  }
  while (frames.length) close();
  tokens.length = 0;
  // HTML that showed nothing (a comment, a closing tag) leaves the blank lines around it as one.
  for (const token of out) if (!(token.type === "space" && tokens.at(-1)?.type === "space")) tokens.push(token);
  return tokens;
}

/** The inline content of blocks (a summary holds only text). */
function inlineOf(node: JSONContent): JSONContent[] {
  if (node.type === "text" || node.type === "hardBreak") return [node];
  return (node.content ?? []).flatMap(inlineOf);
}
