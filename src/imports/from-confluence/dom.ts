/**
 * The few questions the Confluence converter asks of a parsed HTML page (parse5's default tree:
 * elements with `attrs` lists and `childNodes`). parse5 builds the tree the way a browser does
 * (implied end tags, misnested formatting, every named character reference), so an export that
 * is not quite valid HTML reads as Confluence showed it.
 */
import { parse, type DefaultTreeAdapterTypes } from "parse5";

export type HtmlNode = DefaultTreeAdapterTypes.Node;
export type HtmlElement = DefaultTreeAdapterTypes.Element;

export function parseHtml(html: string): HtmlElement {
  const document = parse(html);
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
