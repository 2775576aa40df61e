import { describe, expect, test } from "bun:test";
import { getSchema } from "@tiptap/core";
import { ATTR_RULES } from "./attrs";
import { contentExtensions } from "./extensions";
import { sampleDocument } from "./sample";
import { contentSchema } from "./schema";

const types = () => [...Object.values(contentSchema.nodes), ...Object.values(contentSchema.marks)];

describe("the content schema", () => {
  test("builds from the extension list without a DOM, as on the server, and holds real documents", () => {
    expect(typeof document).toBe("undefined");
    expect(typeof window).toBe("undefined");
    const built = getSchema(contentExtensions);
    for (const seed of [1, 2, 3]) expect(() => built.nodeFromJSON(sampleDocument(seed, 300)).check()).not.toThrow();
    // A document the schema cannot hold is refused by the same build.
    expect(() => built.nodeFromJSON({ type: "doc", content: [{ type: "text", text: "bare text at the top" }] }).check()).toThrow();
  });

  test("has the blocks and marks docs/decisions.md lists", () => {
    expect(Object.keys(contentSchema.nodes).sort()).toEqual([
      "attachment",
      "blockquote",
      "bulletList",
      "codeBlock",
      "details",
      "detailsContent",
      "detailsSummary",
      "doc",
      "hardBreak",
      "heading",
      "horizontalRule",
      "image",
      "listItem",
      "mention",
      "orderedList",
      "pageLink",
      "panel",
      "paragraph",
      "table",
      "tableCell",
      "tableHeader",
      "tableRow",
      "taskItem",
      "taskList",
      "text",
    ]);
    expect(Object.keys(contentSchema.marks).sort()).toEqual([
      "bold",
      "code",
      "comment",
      "deletion",
      "highlight",
      "insertion",
      "italic",
      "link",
      "strike",
      "subscript",
      "superscript",
      "underline",
    ]);
  });

  test("every attribute has a server rule, and every rule names a real attribute", () => {
    for (const type of types()) {
      const attrs = Object.keys(type.spec.attrs ?? {}).sort();
      expect({ [type.name]: Object.keys(ATTR_RULES[type.name] ?? {}).sort() }).toEqual({ [type.name]: attrs });
    }
    for (const name of Object.keys(ATTR_RULES)) expect(types().map((t) => t.name)).toContain(name);
  });

  test("inline code may carry a link, a comment and a tracked change but not bold", () => {
    const { code, link, comment, insertion, bold } = contentSchema.marks;
    for (const other of [link, comment, insertion]) expect(code.excludes(other) || other.excludes(code)).toBe(false);
    expect(code.excludes(bold)).toBe(true);
  });
});
