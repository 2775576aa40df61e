/**
 * The few questions the Confluence converter asks of a parsed HTML page (parse5's default tree:
 * elements with `attrs` lists and `childNodes`). parse5 builds the tree the way a browser does
 * (implied end tags, misnested formatting, every named character reference), so an export that
 * is not quite valid HTML reads as Confluence showed it.
 */
import { defaultTreeAdapter, parse, type DefaultTreeAdapterMap, type DefaultTreeAdapterTypes, type TreeAdapter } from "parse5";

export type HtmlNode = DefaultTreeAdapterTypes.Node;
export type HtmlElement = DefaultTreeAdapterTypes.Element;

/** What one page's parse may cost (nodes, and a deadline its conversion shares); past either it throws HtmlOverBudget. */
export interface HtmlBudget {
  maxNodes: number;
  /** performance.now() past which the page is refused. */
  deadline: number;
  nodes: number;
}

/** A page past its budget: `reason` says which limit ("has more than … (at most …)"). */
export class HtmlOverBudget extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export function htmlBudget(maxNodes: number, milliseconds: number): HtmlBudget {
  return { maxNodes, deadline: performance.now() + milliseconds, nodes: 0 };
}

/** One more node made; the clock is read every 256 steps. */
function count(budget: HtmlBudget): void {
  if (++budget.nodes > budget.maxNodes) {
    throw new HtmlOverBudget(
      `has more than ${budget.maxNodes.toLocaleString("en")} elements and pieces of text (at most ${budget.maxNodes.toLocaleString("en")})`,
    );
  }
  clock(budget);
}

let steps = 0;
function clock(budget: HtmlBudget): void {
  if ((++steps & 255) === 0 && performance.now() > budget.deadline)
    throw new HtmlOverBudget("took too long to read (the time allowed for a page of its size ran out)");
}

/**
 * parse5's tree, built under `budget`: every element, comment and text node counts, so a page of
 * a million paragraphs stops at the limit instead of becoming a million objects. parse5 hands
 * text over word by word (words and white space are separate tokens) and appends each to the
 * text node before it, so only a piece that makes a new text node counts.
 */
function boundedAdapter(budget: HtmlBudget): TreeAdapter<DefaultTreeAdapterMap> {
  const d = defaultTreeAdapter;
  const counted = (parent: DefaultTreeAdapterTypes.ParentNode, insert: () => void) => {
    const before = parent.childNodes.length;
    insert();
    if (parent.childNodes.length > before) count(budget);
    else clock(budget);
  };
  return {
    ...d,
    createElement: (tagName, namespaceURI, attrs) => (count(budget), d.createElement(tagName, namespaceURI, attrs)),
    createCommentNode: (data) => (count(budget), d.createCommentNode(data)),
    insertText: (parent, text) => counted(parent, () => d.insertText(parent, text)),
    insertTextBefore: (parent, text, reference) => counted(parent, () => d.insertTextBefore(parent, text, reference)),
  };
}

/** The page's `<html>` element; with a budget, HtmlOverBudget once the page passes it. */
export function parseHtml(html: string, budget?: HtmlBudget): HtmlElement {
  const document = budget ? parse(html, { treeAdapter: boundedAdapter(budget) }) : parse(html);
  return document.childNodes.find((n): n is HtmlElement => isElement(n) && n.tagName === "html") ?? (document as unknown as HtmlElement);
}

export function isElement(node: HtmlNode): node is HtmlElement {
  return "tagName" in node;
}

export function attr(el: HtmlElement, name: string): string | null {
  return el.attrs.find((a) => a.name === name)?.value ?? null;
}

export function classes(el: HtmlElement): string[] {
  return (attr(el, "class") ?? "").split(/\s+/).filter(Boolean);
}

export function hasClass(el: HtmlElement, name: string): boolean {
  return classes(el).includes(name);
}

export function childElements(el: HtmlNode): HtmlElement[] {
  return "childNodes" in el ? (el.childNodes as HtmlNode[]).filter(isElement) : [];
}

/** The first element below `root` (depth first, `root` included) that `test` accepts. */
export function find(root: HtmlNode, test: (el: HtmlElement) => boolean): HtmlElement | null {
  const stack: HtmlNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (isElement(node) && test(node)) return node;
    if ("childNodes" in node) for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]);
    if (isElement(node) && node.tagName === "template") stack.push((node as DefaultTreeAdapterTypes.Template).content);
  }
  return null;
}

/** Every element below `root` that `test` accepts, in document order. */
export function findAll(root: HtmlNode, test: (el: HtmlElement) => boolean): HtmlElement[] {
  const out: HtmlElement[] = [];
  const stack: HtmlNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (isElement(node) && test(node)) out.push(node);
    if ("childNodes" in node) for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]);
  }
  return out;
}

export const byId = (id: string) => (el: HtmlElement) => attr(el, "id") === id;

/** The text as a reader sees it: white space collapsed and trimmed. */
export function textContent(node: HtmlNode): string {
  return rawText(node).replace(/\s+/g, " ").trim();
}

/** The text exactly as written (for code); without recursion, however deep the markup. */
export function rawText(root: HtmlNode): string {
  const parts: string[] = [];
  const stack: HtmlNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.nodeName === "#text") parts.push((node as DefaultTreeAdapterTypes.TextNode).value);
    else if (isElement(node) && node.tagName === "br") parts.push("\n");
    else if ("childNodes" in node) for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]);
  }
  return parts.join("");
}
