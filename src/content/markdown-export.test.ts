/**
 * The Markdown export of a page: every block of the schema written in a form people read, the
 * product's private forms (mentions, attachment blocks, relative URLs) turned into plain ones,
 * unsafe schemes neutralised, and the structure coming back through the Markdown import.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { JSONContent } from "@tiptap/core";
import { checkContentMarkdown } from "./markdown";
import { forReaders, pageToMarkdown } from "./markdown-export";
import { fromMarkdownZip } from "../imports/from-markdown";
import { openTestZip, removeTestZips } from "../imports/from-markdown/testing";
import { docOf, everythingDocument, inline, para, text } from "./testing";

afterAll(removeTestZips);

const BASE = "https://wiki.example.com";
const exported = (doc: unknown, title = "Release plan") => pageToMarkdown(title, doc as JSONContent, { baseUrl: BASE });

/** Node types with their nesting, and what each block's structure hangs on. */
function shape(node: JSONContent): unknown {
  const a = (node.attrs ?? {}) as Record<string, unknown>;
  const extra =
    node.type === "heading"
      ? `:${a.level}`
      : node.type === "taskItem"
        ? `:${a.checked}`
        : node.type === "codeBlock"
          ? `:${a.language}`
          : node.type === "panel"
            ? `:${a.kind}`
            : node.type === "orderedList"
              ? `:${a.start}`
              : "";
  if (node.type === "text") return "text";
  // Runs of text are one "text" (marks split text nodes differently on the way back).
  // An empty content list is no content (a leaf written either way).
  const kids = node.content?.length ? node.content.map(shape).filter((s, i, all) => !(s === "text" && all[i - 1] === "text")) : undefined;
  return kids ? { [`${node.type}${extra}`]: kids } : `${node.type}${extra}`;
}
const marksOf = (node: JSONContent): string[] =>
  [...new Set([...(node.marks ?? []).map((m) => m.type), ...(node.content ?? []).flatMap(marksOf)])].sort();

describe("pageToMarkdown", () => {
  test(
    "writes every block of the schema: title, headings, marks, lists, tasks, quote, code " +
      "with its language, rule, table, image, attachment, panels, expand",
    () => {
      const md = exported(everythingDocument());
      const expected = [
        "# Release plan\n\n# Release plan 管理\n\n## Level 2\n\n### Level 3\n\n#### Level 4\n\n##### Level 5\n\n###### Level 6\n\n",
        "Owner: @Alice Chen with **bold** *italic* ++under++ ~~struck~~ [`npm test`](https://example.com/ci) ==marked== H2O x2",
        "discussed addedremoved see [the wiki](https://wiki.example.com/spaces/ENG/pages/42)",
        "- first\n  - nested\n- second",
        "3. third",
        "- [x] done\n- [ ] todo",
        "> Quoted wisdom.",
        "```typescript\nconst x = 1;\nconsole.log(x);\n```",
        "---",
        "| Merged header |",
        "| tall cell     | plain cell |",
        "![Architecture diagram](https://wiki.example.com/api/attachments/a-1/download)",
        "[budget-2025.xlsx](https://wiki.example.com/api/attachments/a-2/download)",
        ':::panel {kind="info"}\n\nA info panel\n\n:::',
        ':::panel {kind="error"}\n\nA error panel\n\n:::',
        ":::details",
        "Show the details",
        "Hidden until expanded.",
      ];
      for (const part of expected) expect(md).toContain(part);
      // Nothing of the product's private forms is left for a reader to puzzle over.
      expect(md).not.toContain("[@ id=");
      expect(md).not.toContain(":::attachment");
      expect(md.endsWith(":::\n")).toBe(true);
    },
  );

  test(
    "comes back through the Markdown import with the same structure: node types and " +
      "nesting, table shape, task states, code languages, panel kinds",
    () => {
      const doc = everythingDocument() as JSONContent;
      const imported = JSON.parse(checkContentMarkdown(exported(doc)).json) as JSONContent;
      // The file's first line is the title, a heading of its own.
      expect(imported.content![0]).toEqual({ type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "Release plan" }] });
      const back = { ...imported, content: imported.content!.slice(1) };
      // What the export changes on purpose: a mention is its name, an attachment a link line.
      const expected = forReaders(doc, { baseUrl: BASE });
      const table = (d: JSONContent) => d.content!.find((n) => n.type === "table")!;
      // GFM tables have no spans (markdown.ts LOSSY_IN_MARKDOWN): the merged cells come back split, 3 rows of 2.
      expect(table(back).content!.map((row) => row.content!.map((c) => c.type))).toEqual([
        ["tableHeader", "tableHeader"],
        ["tableCell", "tableCell"],
        ["tableCell", "tableCell"],
      ]);
      const withoutTables = (d: JSONContent) => ({ ...d, content: d.content!.filter((n) => n.type !== "table") });
      expect(shape(withoutTables(back))).toEqual(shape(withoutTables(expected)));
      // Marks: subscript and superscript, comments and tracked changes are plain text in Markdown (LOSSY_IN_MARKDOWN).
      const paragraph = (d: JSONContent) => d.content!.find((n) => n.type === "paragraph")!;
      expect(marksOf(paragraph(back))).toEqual(["bold", "code", "highlight", "italic", "link", "strike", "underline"]);
      expect(JSON.stringify(back)).toContain('"text":"Owner: @Alice Chen with "');
    },
  );

  test("comes back through the Markdown-zip import as the same page: its title from the heading, the same structure", async () => {
    const doc = everythingDocument() as JSONContent;
    const space = await fromMarkdownZip(await openTestZip({ "Release plan.md": exported(doc) }));
    expect(space.pages.map((p) => p.title)).toEqual(["Release plan"]);
    const back = space.pages[0].versions.at(-1)!.content as JSONContent;
    const withoutTables = (d: JSONContent) => ({ ...d, content: d.content!.filter((n) => n.type !== "table") });
    // The image's address is on the wiki it came from, another site here: it comes in as a link with its description.
    const imagesAsLinks = (d: JSONContent): JSONContent => ({
      ...d,
      content: d.content!.map((n) =>
        n.type === "image" ? { type: "paragraph", content: [{ type: "text", text: String(n.attrs!.alt) }] } : n,
      ),
    });
    expect(shape(withoutTables(back))).toEqual(shape(imagesAsLinks(withoutTables(forReaders(doc, { baseUrl: BASE })))));
    expect(space.mapped).toContainEqual(expect.objectContaining({ what: "images from other sites", count: 1 }));
    expect(space.skipped).toEqual([]);
  });

  test("neutralises unsafe link schemes and images, keeping their words", () => {
    const link = (href: string) => ({ type: "text", text: `go ${href.slice(0, 4)}`, marks: [{ type: "link", attrs: { href } }] });
    const md = exported(
      docOf(
        para(
          link("javascript:alert(1)"),
          text(" "),
          link(" JaVaScRiPt:alert(1)"),
          text(" "),
          link("data:text/html,<script>"),
          text(" "),
          link("vbscript:x"),
          text(" "),
          link("mailto:a@b.test"),
        ),
        { type: "image", attrs: { src: "javascript:alert(1)", alt: "evil image" } },
        { type: "image", attrs: { src: "data:image/png;base64,AAAA", alt: "" } },
      ),
    );
    expect(md).not.toMatch(/javascript:|vbscript:|data:/i);
    expect(md).toContain("go java go  JaV go data go vbsc [go mail](mailto:a@b.test)");
    expect(md).toContain("evil image");
    expect(md).not.toContain("![");
  });

  test("keeps links relative without a base address, names mentions through the option, and escapes the title", () => {
    const md = pageToMarkdown(
      "C# *notes* [draft]",
      inline(
        { type: "mention", attrs: { id: "u1", label: "Old name" } },
        text(" and "),
        text("home", [{ type: "link", attrs: { href: "/s/ENG/p/1" } }]),
      ) as JSONContent,
      {
        mentionName: (id) => (id === "u1" ? "New Name" : id),
      },
    );
    expect(md).toBe("# C# \\*notes\\* \\[draft\\]\n\n@New Name and [home](/s/ENG/p/1)\n");
    expect(pageToMarkdown("", docOf() as JSONContent)).toBe("# Untitled\n");
  });
});
