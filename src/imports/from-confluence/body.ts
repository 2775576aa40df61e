/**
 * A Confluence page body (the export's `#main-content`) as a document of the editor schema.
 *
 * Mapped to their equivalents: headings, paragraphs, line breaks, bold/italic/underline/strike/
 * code/sub/superscript, links, lists, task lists (`ul.inline-task-list`), tables (with spans),
 * code macros (`pre.syntaxhighlighter-pre`, language from `brush:`), quotes, rules, images and
 * attachment links, info/note/warning/tip macros and the panel macro → panels, expand macros →
 * expands (details). Everything else keeps its text: column layouts are laid out one after
 * another, status lozenges and user mentions become text, emoticons their emoji; the table of
 * contents macro (the page's headings are its outline) and scripts are dropped. Each is counted
 * in `mapped` with its reason.
 *
 * The conversion builds nodes loosely (inline beside blocks) and lets markdown-fit.ts fit them
 * to the schema, as a Markdown body is: loose text is wrapped in paragraphs, images split the
 * paragraph they sit in, required content is filled in.
 */
import type { JSONContent } from "@tiptap/core";
import { fitToSchema } from "../../content/markdown-fit";
import { ATTACHMENT_REF } from "../model";
import { bold, codeBlock, containerContent, textBlock, textNode, type Mark } from "./blocks";
import { attr, childElements, classes, find, hasClass, isElement, rawText, textContent, type HtmlElement, type HtmlNode } from "./dom";

export interface BodyContext {
  /** The new href of a link (a page or attachment ref, an outside address), or null to keep only its text. */
  link(href: string, el: HtmlElement): string | null;
  /** The new src of an image, or null when it is not in the export (its alt text is kept). */
  image(src: string, el: HtmlElement): string | null;
  /** The attachment block for an attachment ref (a link to a file alone in its paragraph becomes one). */
  attachmentBlock(ref: string): JSONContent | null;
  mapped(what: string, reason: string): void;
  /** Called at each element walked: throws once the page's time is up (a Confluence page's budget). */
  tick?(): void;
}

const PANEL_KINDS: Record<string, string> = { information: "info", info: "info", note: "warning", warning: "error", tip: "success" };
const EMOTICONS: Record<string, string> = {
  tick: "✅",
  cross: "❌",
  warning: "⚠️",
  information: "ℹ️",
  plus: "➕",
  minus: "➖",
  question: "❓",
  smile: "🙂",
  sad: "🙁",
  cheeky: "😛",
  laugh: "😃",
  wink: "😉",
  "thumbs-up": "👍",
  "thumbs-down": "👎",
  "light-on": "💡",
  "light-off": "💡",
  "yellow-star": "⭐",
  "red-star": "⭐",
  "green-star": "⭐",
  "blue-star": "⭐",
  heart: "❤️",
  "broken-heart": "💔",
};
const INLINE_MARKS: Record<string, Mark> = {
  strong: { type: "bold" },
  b: { type: "bold" },
  em: { type: "italic" },
  i: { type: "italic" },
  cite: { type: "italic" },
  u: { type: "underline" },
  ins: { type: "underline" },
  s: { type: "strike" },
  del: { type: "strike" },
  strike: { type: "strike" },
  code: { type: "code" },
  tt: { type: "code" },
  kbd: { type: "code" },
  samp: { type: "code" },
  sub: { type: "subscript" },
  sup: { type: "superscript" },
  mark: { type: "highlight" },
};
const DROPPED = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "head",
  "title",
  "meta",
  "link",
  "colgroup",
  "col",
  "button",
  "input",
  "select",
  "form",
]);
const LAYOUT_CLASSES = ["columnLayout", "contentLayout2", "sectionColumnWrapper", "sectionMacro", "sectionMacroRow"];

/**
 * HTML as loose blocks (Markdown's raw HTML: a README's `<p align="center">`, `<table>`,
 * `<details>`), fitted to the schema with the document around it.
 */
export function htmlContent(root: HtmlNode, ctx: BodyContext): JSONContent[] {
  return containerContent(children(root, [], ctx));
}

export function bodyDocument(main: HtmlElement, ctx: BodyContext): JSONContent {
  const content = containerContent(children(main, [], ctx));
  return fitToSchema(attachmentBlocks({ type: "doc", content: content.length ? content : [{ type: "paragraph" }] }, ctx));
}

/** A paragraph that is only a link to an attached file: the file's block. */
function attachmentBlocks(n: JSONContent, ctx: BodyContext): JSONContent {
  if (!n.content) return n;
  const content = n.content.map((child) => {
    const only = child.type === "paragraph" && child.content?.length === 1 ? child.content[0] : null;
    const href = only?.type === "text" ? String(only.marks?.find((m) => m.type === "link")?.attrs?.href ?? "") : "";
    const block = href.startsWith(ATTACHMENT_REF) ? ctx.attachmentBlock(href.slice(ATTACHMENT_REF.length)) : null;
    return block ?? attachmentBlocks(child, ctx);
  });
  return { ...n, content };
}

function children(el: HtmlNode, marks: Mark[], ctx: BodyContext): JSONContent[] {
  return "childNodes" in el ? (el.childNodes as HtmlNode[]).flatMap((child) => node(child, marks, ctx)) : [];
}

function node(n: HtmlNode, marks: Mark[], ctx: BodyContext): JSONContent[] {
  if (n.nodeName === "#text") {
    const text = rawText(n).replace(/[ \t\n\r\f]+/g, " ");
    return text ? [textNode(text, marks)] : [];
  }
  return isElement(n) ? element(n, marks, ctx) : [];
}

/**
 * Elements nested deeper than this keep only their text: the walk is recursive, and no page
 * Confluence draws nests a hundredth as deep (the schema itself allows 40 levels).
 */
const MAX_ELEMENT_DEPTH = 500;
let depth = 0;

function element(el: HtmlElement, marks: Mark[], ctx: BodyContext): JSONContent[] {
  ctx.tick?.();
  if (depth >= MAX_ELEMENT_DEPTH) {
    ctx.mapped("markup nested too deeply", `kept as its text (more than ${MAX_ELEMENT_DEPTH} elements deep)`);
    const text = textContent(el);
    return text ? [textNode(text, marks)] : [];
  }
  depth++;
  try {
    return convertElement(el, marks, ctx);
  } finally {
    depth--;
  }
}

function convertElement(el: HtmlElement, marks: Mark[], ctx: BodyContext): JSONContent[] {
  const tag = el.tagName;
  const cls = classes(el);
  if (DROPPED.has(tag)) return [];
  if (cls.includes("toc-macro") || attr(el, "data-macro-name") === "toc") {
    ctx.mapped("tables of contents", "dropped: the page's headings are its outline");
    return [];
  }
  if (cls.includes("confluence-information-macro")) return [informationMacro(el, ctx)];
  if (cls.includes("expand-container")) return [expandMacro(el, ctx)];
  if (cls.includes("code") && cls.includes("panel")) return codeMacro(el, ctx);
  if (cls.includes("panel") && find(el, (e) => hasClass(e, "panelContent"))) return [panelMacro(el, ctx)];
  if (cls.includes("status-macro") || cls.includes("aui-lozenge")) {
    ctx.mapped("status lozenges", "kept as bold text (their colour is lost)");
    return [textNode(textContent(el), [...marks, { type: "bold" }])];
  }
  if (LAYOUT_CLASSES.some((c) => cls.includes(c))) {
    if (cls.includes("columnLayout") && childElements(el).length > 1)
      ctx.mapped("page layouts with columns", "the columns are laid out one after another");
  }
  const markOf = INLINE_MARKS[tag];
  if (markOf) return children(el, withMark(marks, markOf), ctx);
  switch (tag) {
    case "h1":
    case "h2":
    case "h3":
    case "h4":
    case "h5":
    case "h6":
      return textBlock({ type: "heading", attrs: { level: Number(tag[1]) } }, children(el, marks, ctx));
    case "p":
      return textBlock({ type: "paragraph" }, children(el, marks, ctx));
    case "br":
      return [{ type: "hardBreak" }];
    case "details":
      return [details(el, ctx)];
    case "hr":
      return [{ type: "horizontalRule" }];
    case "blockquote":
      return [{ type: "blockquote", content: containerContent(children(el, [], ctx)) }];
    case "pre":
      return [codeBlock(rawText(el), attr(el, "data-syntaxhighlighter-params"))];
    case "ul":
    case "ol":
      return [list(el, ctx)];
    case "table":
      return table(el, ctx);
    case "img":
      return image(el, marks, ctx);
    case "a":
      return anchor(el, marks, ctx);
    case "span":
      if (/line-through/.test(attr(el, "style") ?? "")) return children(el, withMark(marks, { type: "strike" }), ctx);
      if (cls.includes("confluence-embedded-file-wrapper") || cls.includes("aui-icon"))
        return cls.includes("aui-icon") ? [] : children(el, marks, ctx);
      return children(el, marks, ctx);
    case "iframe":
    case "object":
    case "embed":
    case "video":
    case "audio": {
      ctx.mapped("embedded media", "kept as a link to its address");
      const src = attr(el, "src") ?? attr(el, "data") ?? "";
      const href = src ? ctx.link(src, el) : null;
      return href ? [textNode(src, [...marks, { type: "link", attrs: { href } }])] : [];
    }
    default: {
      const macro = attr(el, "data-macro-name");
      if (macro && !["code", "info", "note", "warning", "tip", "panel", "expand"].includes(macro)) {
        ctx.mapped(`macro "${macro}"`, "no equivalent block: kept as its text");
      }
      // div, section, article, span and anything unknown: their content, in place.
      return children(el, marks, ctx);
    }
  }
}

/**
 * A mark added once: `<b><b><b>…` nested thousands deep would otherwise copy an ever longer list
 * of marks into every piece of text below it (the schema keeps one of each anyway).
 */
function withMark(marks: Mark[], mark: Mark): Mark[] {
  return marks.some((m) => m.type === mark.type) ? marks : [...marks, mark];
}

function informationMacro(el: HtmlElement, ctx: BodyContext): JSONContent {
  const kindClass = classes(el)
    .map((c) => /^confluence-information-macro-(information|note|warning|tip)$/.exec(c)?.[1])
    .find(Boolean);
  const kind = PANEL_KINDS[kindClass ?? attr(el, "data-macro-name") ?? "information"] ?? "info";
  const title = childElements(el).find((c) => hasClass(c, "title"));
  const body = find(el, (e) => hasClass(e, "confluence-information-macro-body")) ?? el;
  const content = [
    ...(title ? textBlock({ type: "paragraph" }, bold(children(title, [], ctx))) : []),
    ...containerContent(children(body, [], ctx)),
  ];
  return { type: "panel", attrs: { kind }, content };
}

function panelMacro(el: HtmlElement, ctx: BodyContext): JSONContent {
  ctx.mapped("panel macros", "became info panels (their own colours and borders are lost)");
  const header = find(el, (e) => hasClass(e, "panelHeader"));
  const body = find(el, (e) => hasClass(e, "panelContent"))!;
  const content = [
    ...(header ? textBlock({ type: "paragraph" }, bold(children(header, [], ctx))) : []),
    ...containerContent(children(body, [], ctx)),
  ];
  return { type: "panel", attrs: { kind: "info" }, content };
}

function expandMacro(el: HtmlElement, ctx: BodyContext): JSONContent {
  const title = find(el, (e) => hasClass(e, "expand-control-text"));
  const body = find(el, (e) => hasClass(e, "expand-content"));
  const summary = title ? textContent(title) : "";
  return {
    type: "details",
    content: [
      { type: "detailsSummary", content: summary ? [{ type: "text", text: summary }] : [] },
      { type: "detailsContent", content: body ? containerContent(children(body, [], ctx)) : [] },
    ],
  };
}

/** HTML's own expand: `<details><summary>Title</summary>…</details>`. */
function details(el: HtmlElement, ctx: BodyContext): JSONContent {
  const summary = childElements(el).find((c) => c.tagName === "summary");
  const body = { ...el, childNodes: el.childNodes.filter((c) => c !== summary) } as HtmlElement;
  const title = summary ? textContent(summary) : "";
  return {
    type: "details",
    content: [
      { type: "detailsSummary", content: title ? [{ type: "text", text: title }] : [] },
      { type: "detailsContent", content: containerContent(children(body, [], ctx)) },
    ],
  };
}

function codeMacro(el: HtmlElement, ctx: BodyContext): JSONContent[] {
  const header = find(el, (e) => hasClass(e, "codeHeader"));
  const pre = find(el, (e) => e.tagName === "pre");
  const out = header ? textBlock({ type: "paragraph" }, bold(children(header, [], ctx))) : [];
  out.push(codeBlock(pre ? rawText(pre) : textContent(el), pre ? attr(pre, "data-syntaxhighlighter-params") : null));
  return out;
}

function list(el: HtmlElement, ctx: BodyContext): JSONContent {
  const tasks = hasClass(el, "inline-task-list");
  const items = childElements(el).filter((c) => c.tagName === "li");
  if (tasks) {
    return {
      type: "taskList",
      content: items.map((li) => ({
        type: "taskItem",
        attrs: { checked: hasClass(li, "checked") },
        content: containerContent(children(li, [], ctx)),
      })),
    };
  }
  const content = items.map((li) => ({ type: "listItem", content: containerContent(children(li, [], ctx)) }));
  if (el.tagName === "ol") {
    const start = Number(attr(el, "start") ?? 1);
    return { type: "orderedList", attrs: { start: Number.isInteger(start) && start >= 0 && start <= 1_000_000_000 ? start : 1 }, content };
  }
  return { type: "bulletList", content };
}

function table(el: HtmlElement, ctx: BodyContext): JSONContent[] {
  const rows: HtmlElement[] = [];
  const collect = (parent: HtmlElement) => {
    for (const c of childElements(parent)) {
      if (c.tagName === "tr") rows.push(c);
      else if (["thead", "tbody", "tfoot"].includes(c.tagName)) collect(c);
    }
  };
  collect(el);
  const caption = childElements(el).find((c) => c.tagName === "caption");
  const out = caption ? textBlock({ type: "paragraph" }, children(caption, [], ctx)) : [];
  const span = (cell: HtmlElement, name: string) => {
    const n = Number(attr(cell, name) ?? 1);
    return Number.isInteger(n) && n >= 1 && n <= 1000 ? n : 1;
  };
  const tableRows = rows
    .map((tr) => ({
      type: "tableRow",
      content: childElements(tr)
        .filter((c) => c.tagName === "td" || c.tagName === "th")
        .map((cell) => ({
          type: cell.tagName === "th" ? "tableHeader" : "tableCell",
          attrs: { colspan: span(cell, "colspan"), rowspan: span(cell, "rowspan") },
          content: containerContent(children(cell, [], ctx)),
        })),
    }))
    .filter((row) => row.content.length);
  if (tableRows.length) out.push({ type: "table", content: tableRows });
  return out;
}

function image(el: HtmlElement, marks: Mark[], ctx: BodyContext): JSONContent[] {
  const src = attr(el, "data-image-src") ?? attr(el, "src") ?? "";
  const alt = attr(el, "alt");
  const emoticon = attr(el, "data-emoticon-name") ?? (hasClass(el, "emoticon") ? /emoticons\/([\w-]+)\./.exec(src)?.[1] : undefined);
  if (emoticon || /(^|\/)images\/icons\//.test(src)) {
    const emoji = emoticon ? EMOTICONS[emoticon] : undefined;
    const text = emoji ?? (alt && !/^\s*$/.test(alt) ? alt : "");
    if (emoticon) ctx.mapped("emoticons", "became emoji (or their text)");
    return text ? [textNode(text, marks)] : [];
  }
  const newSrc = src ? ctx.image(src, el) : null;
  if (!newSrc) return alt ? [textNode(alt, marks)] : [];
  const dimension = (name: string) => {
    const v = attr(el, name);
    return v && /^\d{1,6}$/.test(v) ? Number(v) : null;
  };
  return [
    {
      type: "image",
      attrs: { src: newSrc, alt: alt || null, title: attr(el, "title"), width: dimension("width"), height: dimension("height") },
    },
  ];
}

function anchor(el: HtmlElement, marks: Mark[], ctx: BodyContext): JSONContent[] {
  const href = attr(el, "href");
  const cls = classes(el);
  if (cls.includes("confluence-userlink") || cls.includes("user-mention") || /viewprofile\.action|\/display\/~/.test(href ?? "")) {
    ctx.mapped("user mentions", "became the person's name as text (accounts are not imported)");
    const name = textContent(el);
    return name ? [textNode(name.startsWith("@") ? name : `@${name}`, marks)] : [];
  }
  if (!href) return children(el, marks, ctx);
  const newHref = ctx.link(href, el);
  return children(el, newHref ? [...marks.filter((m) => m.type !== "link"), { type: "link", attrs: { href: newHref } }] : marks, ctx);
}
