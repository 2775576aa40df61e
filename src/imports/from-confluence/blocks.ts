/**
 * Builders for the Confluence body's nodes that need no HTML: text with marks, text blocks
 * trimmed as a browser shows them, runs of loose inline content wrapped in paragraphs, code.
 */
import type { JSONContent } from "@tiptap/core";

export type Mark = NonNullable<JSONContent["marks"]>[number];

export function textNode(text: string, marks: Mark[]): JSONContent {
  return marks.length ? { type: "text", text, marks: [...marks] } : { type: "text", text };
}

/** A text block's inline content, split around blocks (images, nested lists) sitting inside it. */
export function textBlock(shell: JSONContent, content: JSONContent[]): JSONContent[] {
  const out: JSONContent[] = [];
  let run: JSONContent[] = [];
  const flush = () => {
    const inline = trimInline(run);
    if (inline.length) out.push({ ...shell, content: inline });
    run = [];
  };
  for (const child of content) {
    if (isInline(child)) run.push(child);
    else {
      flush();
      out.push(child);
    }
  }
  flush();
  return out;
}

export const isInline = (n: JSONContent) => n.type === "text" || n.type === "hardBreak" || n.type === "mention";

/** White space at the edges and doubled between nodes removed; a text block of nothing but white space and breaks is empty. */
function trimInline(nodes: JSONContent[]): JSONContent[] {
  const out: JSONContent[] = [];
  for (const n of nodes) {
    if (n.type !== "text") {
      out.push(n);
      continue;
    }
    const prev = out.at(-1);
    let text = n.text!;
    if (!prev || prev.type === "hardBreak" || (prev.type === "text" && prev.text!.endsWith(" "))) text = text.replace(/^ +/, "");
    if (text) out.push({ ...n, text });
  }
  while (out.length && (out.at(-1)!.type === "hardBreak" || (out.at(-1)!.type === "text" && !out.at(-1)!.text!.trim()))) out.pop();
  const last = out.at(-1);
  if (last?.type === "text") out[out.length - 1] = { ...last, text: last.text!.replace(/ +$/, "") };
  const meaningful = out.some((n) => n.type !== "hardBreak" && (n.type !== "text" || n.text!.replace(/\u00a0/g, "").trim()));
  return meaningful ? out : [];
}

/** Content of a node that holds blocks: runs of loose inline content become paragraphs. */
export function containerContent(nodes: JSONContent[]): JSONContent[] {
  const out: JSONContent[] = [];
  let run: JSONContent[] = [];
  const flush = () => {
    out.push(...textBlock({ type: "paragraph" }, run));
    run = [];
  };
  for (const child of nodes) {
    if (isInline(child)) run.push(child);
    else {
      flush();
      out.push(child);
    }
  }
  flush();
  return out;
}

export const bold = (nodes: JSONContent[]) =>
  nodes.map((n) => (n.type === "text" ? { ...n, marks: [...(n.marks ?? []), { type: "bold" }] } : n));

/** Confluence's brush names that differ from the usual language names. */
const BRUSHES: Record<string, string> = {
  js: "javascript",
  py: "python",
  ps: "powershell",
  shell: "bash",
  sh: "bash",
  text: "",
  none: "",
  plain: "",
};

export function codeBlock(code: string, params: string | null): JSONContent {
  const brush = /(?:^|;)\s*brush:\s*([\w#+.-]+)/i.exec(params ?? "")?.[1]?.toLowerCase() ?? "";
  const language = (BRUSHES[brush] ?? brush) || null;
  const text = code.replace(/\r\n?/g, "\n").replace(/\n$/, "");
  return { type: "codeBlock", attrs: { language }, content: text ? [{ type: "text", text }] : [] };
}
