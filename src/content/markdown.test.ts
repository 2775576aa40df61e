import { describe, expect, test } from "bun:test";
import { AppError } from "../platform/errors";
import { checkContentMarkdown, contentToMarkdown } from "./markdown";
import { docOf, everythingDocument, inline, para, text } from "./testing";
import { checkContentJson } from "./validate";

const stored = (doc: unknown) => checkContentJson(JSON.stringify(doc)).json;
const fromMarkdown = (markdown: string) => JSON.parse(checkContentMarkdown(markdown).json);

/** The reason of the 400 on contentMarkdown; fails the test on anything else. */
function markdownRejection(markdown: unknown): string {
  try {
    checkContentMarkdown(markdown);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).extras.field).toBe("contentMarkdown");
    return (error as AppError).extras.errors!.contentMarkdown[0];
  }
  throw new Error(`accepted: ${String(markdown).slice(0, 200)}`);
}

const item = (...content: unknown[]) => ({ type: "listItem", content });
const cell = (type: string, words: string) => ({ type, content: [para(text(words))] });

/**
 * Each block the schema supports, in the Markdown the export writes: reading it gives the
 * document shown, and writing that document gives the same Markdown back.
 */
const ROUND_TRIPS: Array<[string, string, unknown]> = [
  [
    "headings 1 to 6",
    "# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six\n",
    docOf(
      ...["One", "Two", "Three", "Four", "Five", "Six"].map((t, i) => ({ type: "heading", attrs: { level: i + 1 }, content: [text(t)] })),
    ),
  ],
  [
    "a paragraph with bold, italic, code, link and strike",
    'Plain **bold** *italic* `code` [link](https://example.com/a "A title") ~~gone~~\n',
    inline(
      text("Plain "),
      text("bold", [{ type: "bold" }]),
      text(" "),
      text("italic", [{ type: "italic" }]),
      text(" "),
      text("code", [{ type: "code" }]),
      text(" "),
      text("link", [{ type: "link", attrs: { href: "https://example.com/a", title: "A title" } }]),
      text(" "),
      text("gone", [{ type: "strike" }]),
    ),
  ],
  [
    "underline and highlight",
    "++under++ and ==marked==\n",
    inline(text("under", [{ type: "underline" }]), text(" and "), text("marked", [{ type: "highlight" }])),
  ],
  [
    "marks inside a link",
    "[**bold** link](/spaces/ENG/pages/42)\n",
    inline(
      text("bold", [{ type: "link", attrs: { href: "/spaces/ENG/pages/42" } }, { type: "bold" }]),
      text(" link", [{ type: "link", attrs: { href: "/spaces/ENG/pages/42" } }]),
    ),
  ],
  ["a hard break", "line one  \nline two\n", inline(text("line one"), { type: "hardBreak" }, text("line two"))],
  ["empty paragraphs between blocks", "a\n\n\n\nb\n", docOf(para(text("a")), para(), para(text("b")))],
  [
    "a nested bullet list",
    "- one\n- two\n  - nested\n",
    docOf({
      type: "bulletList",
      content: [item(para(text("one"))), item(para(text("two")), { type: "bulletList", content: [item(para(text("nested")))] })],
    }),
  ],
  [
    "an ordered list starting at 3",
    "3. three\n4. four\n",
    docOf({ type: "orderedList", attrs: { start: 3 }, content: [item(para(text("three"))), item(para(text("four")))] }),
  ],
  [
    "a task list",
    "- [ ] to do\n- [x] done\n",
    docOf({
      type: "taskList",
      content: [
        { type: "taskItem", attrs: { checked: false }, content: [para(text("to do"))] },
        { type: "taskItem", attrs: { checked: true }, content: [para(text("done"))] },
      ],
    }),
  ],
  [
    "a quote of two paragraphs",
    "> quoted\n>\n> again\n",
    docOf({ type: "blockquote", content: [para(text("quoted")), para(text("again"))] }),
  ],
  [
    "a code block with a language",
    "```typescript\nconst x = 1;\n\nconsole.log(x);\n```\n",
    docOf({ type: "codeBlock", attrs: { language: "typescript" }, content: [text("const x = 1;\n\nconsole.log(x);")] }),
  ],
  [
    "a table with a header row",
    "\n| Name | Role |\n| ---- | ---- |\n| Ann  | Lead |\n",
    docOf({
      type: "table",
      content: [
        { type: "tableRow", content: [cell("tableHeader", "Name"), cell("tableHeader", "Role")] },
        { type: "tableRow", content: [cell("tableCell", "Ann"), cell("tableCell", "Lead")] },
      ],
    }),
  ],
  ["a divider", "above\n\n---\n\nbelow\n", docOf(para(text("above")), { type: "horizontalRule" }, para(text("below")))],
  [
    "an image",
    '![Architecture](/api/attachments/a-1/view "The big picture")\n',
    docOf({ type: "image", attrs: { src: "/api/attachments/a-1/view", alt: "Architecture", title: "The big picture" } }),
  ],
  [
    "a panel",
    ':::panel {kind="warning"}\n\nDeploy after **18:00**.\n\n:::\n',
    docOf({
      type: "panel",
      attrs: { kind: "warning" },
      content: [para(text("Deploy after "), text("18:00", [{ type: "bold" }]), text("."))],
    }),
  ],
  [
    "an expand",
    ":::details\n\n:::detailsSummary\n\nMore\n\n:::\n\n:::detailsContent\n\nHidden until opened.\n\n:::\n\n:::\n",
    docOf({
      type: "details",
      content: [
        { type: "detailsSummary", content: [text("More")] },
        { type: "detailsContent", content: [para(text("Hidden until opened."))] },
      ],
    }),
  ],
  [
    "a mention",
    'Ask [@ id="0190a6c8-0000-7000-8000-000000000001" label="Alice Chen"] first\n',
    inline(text("Ask "), { type: "mention", attrs: { id: "0190a6c8-0000-7000-8000-000000000001", label: "Alice Chen" } }, text(" first")),
  ],
  [
    "an attachment",
    ':::attachment {attachmentId="a-2" filename="budget 100%25.xlsx" size="48213" contentType="application/vnd.ms-excel"} :::\n',
    docOf({
      type: "attachment",
      attrs: { attachmentId: "a-2", filename: "budget 100%.xlsx", size: 48213, contentType: "application/vnd.ms-excel" },
    }),
  ],
];

describe("Markdown round trip", () => {
  test("runs on the server as it is, with no DOM (MarkdownManager, not the editor extension)", () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe("undefined");
    expect(fromMarkdown("**ok**")).toMatchObject(inline(text("ok", [{ type: "bold" }])));
  });

  test.each(ROUND_TRIPS)("%s", (_, markdown, doc) => {
    const read = fromMarkdown(markdown);
    expect(read).toMatchObject(doc as object);
    expect(JSON.stringify(read)).toBe(stored(read));
    expect(contentToMarkdown(JSON.stringify(read))).toBe(markdown);
    expect(checkContentMarkdown(contentToMarkdown(JSON.stringify(read))).json).toBe(JSON.stringify(read));
  });

  test("text that looks like a block at the start of a line stays text", () => {
    const lines = [
      "# not a heading",
      "1. not a list",
      "2) nor this",
      "- not a bullet",
      "+ nor this",
      "---",
      "===",
      ":::panel",
      "> not a quote",
      "| not | a table |",
    ];
    const before = stored(
      docOf(...lines.map((line) => para(text(line))), para(text("a"), { type: "hardBreak" }, text("1. after a break"))),
    );
    expect(checkContentMarkdown(contentToMarkdown(before)).json).toBe(before);
  });

  test("a page using every block and mark is stable after its first trip (what is lost, is lost once)", () => {
    const once = checkContentMarkdown(contentToMarkdown(stored(everythingDocument()))).json;
    expect(checkContentMarkdown(contentToMarkdown(once)).json).toBe(once);
    // Everything but the lossy parts (below) survives: every block type is still there.
    const types = (json: string) => [...new Set([...json.matchAll(/"type":"(\w+)"/g)].map((m) => m[1]))].sort();
    const lossy = ["comment", "insertion", "deletion", "subscript", "superscript"];
    expect(types(once)).toEqual(types(stored(everythingDocument())).filter((t) => !lossy.includes(t)));
  });
});

/** What Markdown cannot hold (LOSSY_IN_MARKDOWN): the document before, and as it comes back. */
const LOSSY: Array<[string, unknown, unknown]> = [
  [
    "subscript and superscript become plain text",
    inline(text("H"), text("2", [{ type: "subscript" }]), text("O x"), text("2", [{ type: "superscript" }])),
    inline(text("H2O x2")),
  ],
  [
    "comment anchors become plain text",
    inline(text("see "), text("this", [{ type: "comment", attrs: { commentId: "c-1" } }])),
    inline(text("see this")),
  ],
  [
    "tracked changes become plain text, deleted words included",
    inline(text("new", [{ type: "insertion", attrs: { id: "ch-1" } }]), text(" old", [{ type: "deletion", attrs: { id: "ch-1" } }])),
    inline(text("new old")),
  ],
  [
    "image sizes are dropped",
    docOf({ type: "image", attrs: { src: "https://example.com/a.png", alt: "A", width: 640 } }),
    docOf({ type: "image", attrs: { src: "https://example.com/a.png", alt: "A", width: null } }),
  ],
  [
    "merged table cells are split",
    docOf({
      type: "table",
      content: [
        { type: "tableRow", content: [{ ...cell("tableHeader", "Both"), attrs: { colspan: 2 } }] },
        { type: "tableRow", content: [cell("tableCell", "a"), cell("tableCell", "b")] },
      ],
    }),
    docOf({
      type: "table",
      content: [
        {
          type: "tableRow",
          content: [
            { ...cell("tableHeader", "Both"), attrs: { colspan: 1 } },
            { type: "tableHeader", content: [para()] },
          ],
        },
        { type: "tableRow", content: [cell("tableCell", "a"), cell("tableCell", "b")] },
      ],
    }),
  ],
];

describe("what Markdown loses", () => {
  test.each(LOSSY)("%s", (_, before, after) => {
    expect(fromMarkdown(contentToMarkdown(stored(before)))).toMatchObject(after as object);
  });
});

/** Markdown the schema cannot hold as written, read the way the editor would show it. */
const FITTED: Array<[string, string, unknown]> = [
  [
    "an image inside a paragraph splits it",
    "See ![chart](https://example.com/c.png) here",
    docOf(para(text("See ")), { type: "image", attrs: { src: "https://example.com/c.png" } }, para(text(" here"))),
  ],
  ["bold code stays code (code excludes bold)", "**`npm test`**", inline(text("npm test", [{ type: "code" }]))],
  [
    "a fence's info string gives its first word as the language",
    '```js title="x.js"\nx\n```',
    docOf({ type: "codeBlock", attrs: { language: "js" }, content: [text("x")] }),
  ],
  ["an info string that is no language name gives none", "```{weird}\nx\n```", docOf({ type: "codeBlock", attrs: { language: null } })],
  ["an empty quote gets its paragraph", ">", docOf({ type: "blockquote", content: [{ type: "paragraph" }] })],
  ["a link to nothing is plain text", "[a]()", inline(text("a"))],
  [
    "a link whose text starts with @ (an npm scope) is a link, not a mention",
    "See [@y/websocket-server](https://github.com/yjs/y-websocket-server).",
    inline(
      text("See "),
      text("@y/websocket-server", [{ type: "link", attrs: { href: "https://github.com/yjs/y-websocket-server" } }]),
      text("."),
    ),
  ],
  ["[@ without an id is text", "[@ nobody] and [@bare]", inline(text("[@ nobody] and [@bare]"))],
  ["raw HTML is the text typed", "Use <b>bold</b> &amp; <i>this</i>", inline(text("Use <b>bold</b> & <i>this</i>"))],
  [
    "unknown panel attributes are dropped",
    ':::panel {kind="note" .big #x onclick="y"}\n\nHi\n\n:::',
    docOf({ type: "panel", attrs: { kind: "note" }, content: [para(text("Hi"))] }),
  ],
  ["an empty document is one empty paragraph", "", docOf(para())],
];

describe("fitting Markdown to the schema", () => {
  test.each(FITTED)("%s", (_, markdown, doc) => {
    expect(fromMarkdown(markdown)).toMatchObject(doc as object);
  });

  test("a panel kind the schema does not know is refused, naming it", () => {
    expect(markdownRejection(':::panel {kind="danger"}\n\nHi\n\n:::')).toContain('content[0].attrs.kind: must be one of "info"');
  });

  test("contentMarkdown must be a string", () => {
    for (const value of [null, 1, {}, ["# x"]]) expect(markdownRejection(value)).toBe("must be a string of Markdown");
  });
});
