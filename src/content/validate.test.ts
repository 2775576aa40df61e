import { describe, expect, test } from "bun:test";
import { EMPTY_DOCUMENT_JSON, emptyDocument } from "./schema";
import { docOf, everythingDocument, inline, para, rejection, text } from "./testing";
import { checkContentJson } from "./validate";

const reject = (doc: unknown) => rejection(JSON.stringify(doc));

describe("checkContentJson accepts", () => {
  test("a document with every block and mark of the editor schema, and round-trips it", () => {
    const first = checkContentJson(JSON.stringify(everythingDocument()));
    const again = checkContentJson(first.json);
    expect(again.json).toBe(first.json);
    const stored = JSON.parse(first.json);
    const types = new Set<string>();
    const marks = new Set<string>();
    const walk = (node: any) => {
      types.add(node.type);
      node.marks?.forEach((m: any) => marks.add(m.type));
      node.content?.forEach(walk);
    };
    walk(stored);
    for (const t of [
      "paragraph",
      "heading",
      "bulletList",
      "orderedList",
      "taskList",
      "taskItem",
      "listItem",
      "blockquote",
      "codeBlock",
      "horizontalRule",
      "hardBreak",
      "table",
      "tableRow",
      "tableHeader",
      "tableCell",
      "image",
      "attachment",
      "panel",
      "details",
      "detailsSummary",
      "detailsContent",
      "mention",
      "text",
    ])
      expect(types).toContain(t);
    for (const m of [
      "bold",
      "italic",
      "underline",
      "strike",
      "code",
      "link",
      "highlight",
      "subscript",
      "superscript",
      "comment",
      "insertion",
      "deletion",
    ])
      expect(marks).toContain(m);
    expect(stored.content[0]).toEqual({ type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "Release plan 管理" }] });
  });

  test("the empty document, unchanged", () => {
    expect(checkContentJson(EMPTY_DOCUMENT_JSON)).toEqual({ json: EMPTY_DOCUMENT_JSON, text: "" });
    expect(JSON.parse(EMPTY_DOCUMENT_JSON)).toEqual(emptyDocument());
  });

  test("normalises: defaults filled in, adjacent text with the same marks joined", () => {
    const { json } = checkContentJson(JSON.stringify(docOf({ type: "heading", content: [text("a"), text("b")] })));
    expect(JSON.parse(json)).toEqual(docOf({ type: "heading", attrs: { level: 1 }, content: [text("ab")] }));
  });

  test.each([
    ["relative link", "/spaces/ENG"],
    ["anchor", "#install"],
    ["mailto", "mailto:ops@example.com"],
    ["https with a colon later", "https://example.com/a:b"],
    ["path with a colon", "docs/a:b"],
  ])("link href: %s", (_, href) => {
    expect(() => checkContentJson(JSON.stringify(inline(text("x", [{ type: "link", attrs: { href } }]))))).not.toThrow();
  });
});

describe("checkContentJson refuses, naming where", () => {
  test.each<[string, unknown, string]>([
    ["unknown node", docOf(para(), para(text("a"), { type: "blink" })), 'content[1].content[1]: unknown node type "blink"'],
    ["unknown mark", inline(text("a", [{ type: "marquee" }])), 'content[0].content[0].marks[0]: unknown mark type "marquee"'],
    ["snake_case node name", docOf({ type: "bullet_list" }), 'content[0]: unknown node type "bullet_list" (did you mean "bulletList"?)'],
    ["another editor's node name", docOf({ type: "expand" }), 'unknown node type "expand" (did you mean "details"?)'],
    ["another editor's mark name", inline(text("a", [{ type: "strong" }])), 'unknown mark type "strong" (did you mean "bold"?)'],
    ["text straight in the doc", docOf(text("hi")), 'content[0]: "text" is not allowed inside "doc"'],
    [
      "block inside a paragraph",
      docOf(para({ type: "heading", content: [text("h")] })),
      'content[0].content[0]: "heading" is not allowed inside "paragraph"',
    ],
    [
      "list item not starting with a paragraph",
      docOf({ type: "bulletList", content: [{ type: "listItem", content: [{ type: "heading" }] }] }),
      'content[0].content[0].content[0]: "heading" is not allowed inside "listItem" here (expected paragraph)',
    ],
    [
      "paragraph straight in a table",
      docOf({ type: "table", content: [para()] }),
      'content[0].content[0]: "paragraph" is not allowed inside "table" here (expected tableRow)',
    ],
    ["empty list", docOf({ type: "bulletList", content: [] }), 'content[0]: "bulletList" is incomplete: it needs listItem at the end'],
    [
      "expand without title",
      docOf({ type: "details", content: [{ type: "detailsContent", content: [para()] }] }),
      'content[0].content[0]: "detailsContent" is not allowed inside "details" here (expected detailsSummary)',
    ],
    ["empty doc", docOf(), "the document is empty"],
    ["content in a leaf", docOf({ type: "horizontalRule", content: [para()] }), 'content[0]: "horizontalRule" cannot have content'],
    [
      "marked text in a code block",
      docOf({ type: "codeBlock", content: [text("x", [{ type: "bold" }])] }),
      'content[0].content[0].marks[0]: mark "bold" is not allowed inside "codeBlock"',
    ],
    [
      "marks on a block",
      docOf({ type: "paragraph", marks: [{ type: "bold" }] }),
      'content[0].marks[0]: mark "bold" is not allowed inside "doc"',
    ],
    ["excluded marks", inline(text("x", [{ type: "code" }, { type: "bold" }])), 'marks[1]: mark "bold" cannot be combined with "code"'],
    ["duplicate mark", inline(text("x", [{ type: "bold" }, { type: "bold" }])), 'marks[1]: duplicate mark "bold"'],
    [
      "two links",
      inline(
        text("x", [
          { type: "link", attrs: { href: "/a" } },
          { type: "link", attrs: { href: "/b" } },
        ]),
      ),
      'mark "link" appears twice',
    ],
    ["heading level 7", docOf({ type: "heading", attrs: { level: 7 } }), "content[0].attrs.level: must be an integer from 1 to 6"],
    ["heading level as text", docOf({ type: "heading", attrs: { level: "2" } }), "content[0].attrs.level: must be an integer from 1 to 6"],
    [
      "panel kind purple",
      docOf({ type: "panel", attrs: { kind: "purple" }, content: [para()] }),
      'content[0].attrs.kind: must be one of "info", "note", "warning", "success", "error"',
    ],
    [
      "javascript: link",
      inline(text("x", [{ type: "link", attrs: { href: "javascript:alert(1)" } }])),
      'content[0].content[0].marks[0].attrs.href: scheme "javascript:" is not allowed',
    ],
    [
      "JavaScript: link with spaces",
      inline(text("x", [{ type: "link", attrs: { href: "  JavaScript:alert(1)" } }])),
      'scheme "javascript:" is not allowed',
    ],
    [
      "link with a tab in the scheme",
      inline(text("x", [{ type: "link", attrs: { href: "java\tscript:alert(1)" } }])),
      "must not contain control characters",
    ],
    [
      "data: image",
      docOf({ type: "image", attrs: { src: "data:image/png;base64,AAAA" } }),
      'content[0].attrs.src: scheme "data:" is not allowed',
    ],
    ["image without src", docOf({ type: "image" }), "content[0].attrs.src: is required"],
    ["attachment without id", docOf({ type: "attachment", attrs: { filename: "a.pdf" } }), "content[0].attrs.attachmentId: is required"],
    ["mention without id", inline({ type: "mention", attrs: { label: "Al" } }), "content[0].content[0].attrs.id: is required"],
    ["comment without id", inline(text("x", [{ type: "comment" }])), "marks[0].attrs.commentId: is required"],
    [
      "tracked change with a bad date",
      inline(text("x", [{ type: "insertion", attrs: { id: "c", createdAt: "yesterday" } }])),
      "attrs.createdAt: must be null or an ISO 8601",
    ],
    [
      "code block language with markup",
      docOf({ type: "codeBlock", attrs: { language: '"><script>' } }),
      "content[0].attrs.language: must be null or a language name",
    ],
    [
      "colspan 0",
      docOf({ type: "table", content: [{ type: "tableRow", content: [{ type: "tableCell", attrs: { colspan: 0 }, content: [para()] }] }] }),
      "content[0].content[0].content[0].attrs.colspan: must be an integer from 1 to 1000",
    ],
    [
      "unknown attribute",
      docOf({ type: "paragraph", attrs: { style: "color:red" } }),
      'content[0].attrs: unknown attribute "style" for "paragraph" (it has no attributes)',
    ],
    [
      "unknown heading attribute",
      docOf({ type: "heading", attrs: { level: 1, id: "x" } }),
      'unknown attribute "id" for "heading" (known: level)',
    ],
    ["unknown node key", docOf({ type: "paragraph", style: "x" }), 'content[0]: unknown key "style" on "paragraph"'],
    ["empty text", inline(text("")), 'content[0].content[0]: a text node needs a non-empty "text" string'],
    ["text on a paragraph", docOf({ type: "paragraph", text: "x" }), 'content[0]: only text nodes have "text"'],
    ["content not an array", docOf({ type: "paragraph", content: "x" }), 'content[0]: "content" must be an array'],
    ["node not an object", docOf(42), "content[0]: expected a node object, got number 42"],
    ["node without type", docOf({ content: [] }), 'content[0]: a node needs a "type" string'],
    ["doc nested in a doc", docOf({ type: "doc", content: [para()] }), 'content[0]: "doc" is not allowed inside "doc"'],
  ])("%s", (_, doc, reason) => {
    expect(reject(doc)).toContain(reason);
  });

  test.each<[string, unknown, string]>([
    ["not a string", { type: "doc" }, "must be a string holding the document as JSON text, got object"],
    ["null", null, "got null"],
    ["a number", 42, "got number"],
    ["not JSON", "{type: doc}", "is not valid JSON"],
    ["a JSON array", "[]", 'the document must be an object with "type": "doc" (got an array)'],
    ["a JSON string", '"doc"', 'the document must be an object with "type": "doc" (got the string "doc")'],
    ["another type", '{"type":"paragraph"}', 'the document must be an object with "type": "doc" (got type "paragraph")'],
  ])("%s", (_, input, reason) => {
    expect(rejection(input)).toContain(reason);
  });
});
