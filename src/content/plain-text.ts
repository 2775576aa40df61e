import type { Node as PMNode } from "@tiptap/pm/model";

/**
 * The words of a page for the search index: each text block (paragraph, heading, code block,
 * table cell paragraph, expand title…) on its own line, mentions as "@label", attachments by
 * file name and images by alt text, so all of them are findable. No markup; empty blocks skipped.
 */
export function plainText(doc: PMNode): string {
  const lines: string[] = [];
  doc.descendants((node) => {
    if (node.isTextblock) {
      const line = inlineText(node);
      if (line.trim() !== "") lines.push(line);
      return false;
    }
    if (node.type.name === "attachment" && node.attrs.filename) lines.push(String(node.attrs.filename));
    if (node.type.name === "image" && node.attrs.alt) lines.push(String(node.attrs.alt));
    return true;
  });
  return lines.join("\n");
}

function inlineText(block: PMNode): string {
  let line = "";
  block.forEach((node) => {
    if (node.isText) line += node.text;
    else if (node.type.name === "mention") line += `@${node.attrs.label ?? node.attrs.id}`;
    else if (node.type.name === "hardBreak") line += "\n";
  });
  return line;
}
