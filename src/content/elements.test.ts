/**
 * The node-to-element table (elements.ts) covers the schema: every node and mark is either an
 * element of the table or one of the few each renderer draws itself around the table's parts; and
 * a type named like an object's own property is not mistaken for an entry.
 */
import { expect, test } from "bun:test";
import { MARK_ELEMENTS, NODE_ELEMENTS } from "./elements";
import { documentHtml } from "./html";
import { contentSchema } from "./schema";

/**
 * Drawn by each renderer (text itself, the document, a code block's colours, an image's policy, a
 * page link's title, a link's checked address).
 */
const DRAWN_APART = { nodes: ["doc", "text", "codeBlock", "image", "pageLink"], marks: ["link"] };

test("every node and mark of the schema has its element in the table, or is drawn apart", () => {
  expect(Object.keys(contentSchema.nodes).filter((n) => !(n in NODE_ELEMENTS) && !DRAWN_APART.nodes.includes(n))).toEqual([]);
  expect(Object.keys(contentSchema.marks).filter((m) => !(m in MARK_ELEMENTS) && !DRAWN_APART.marks.includes(m))).toEqual([]);
});

test("a node or mark named like an object's property draws its content only", () => {
  const doc = {
    type: "doc",
    content: [{ type: "constructor", content: [{ type: "text", text: "kept", marks: [{ type: "toString" }, { type: "__proto__" }] }] }],
  };
  expect(documentHtml(doc)).toBe("kept");
});
