import type { Node as PMNode } from "@tiptap/pm/model";

/**
 * The words of a page for the search index: each text block (paragraph, heading, code block,
 * table cell paragraph, expand title…) on its own line, mentions as "@label", attachments by
 * file name and images by alt text, so all of them are findable. No markup; empty blocks skipped.
 *
 * Walked child by child rather than with Node.descendants, which works out every node's
 * position on the way (nothing here needs one): every saved page goes through this.
 */
export function plainText(doc: PMNode): string {
  const lines: string[] = [];
  collect(doc, lines);
  return lines.join("\n");
}

function collect(parent: PMNode, lines: string[]): void {
  for (let i = 0; i < parent.childCount; i++) {
    const node = parent.child(i);
    if (node.isTextblock) {
      const line = inlineText(node);
      // \S is exactly what trim() keeps: a line of whitespace only is an empty block.
      if (NOT_BLANK.test(line)) lines.push(line);
      continue;
    }
    const name = node.type.name;
    if (name === "attachment" && node.attrs.filename) lines.push(String(node.attrs.filename));
    if (name === "image" && node.attrs.alt) lines.push(String(node.attrs.alt));
    if (node.childCount > 0) collect(node, lines);
  }
}

const NOT_BLANK = /\S/;

function inlineText(block: PMNode): string {
  let line = "";
  for (let i = 0; i < block.childCount; i++) {
    const node = block.child(i);
    if (node.isText) line += node.text;
    else if (node.type.name === "mention") line += `@${node.attrs.label ?? node.attrs.id}`;
    else if (node.type.name === "hardBreak") line += "\n";
  }
  return line;
}
