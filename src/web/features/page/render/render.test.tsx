/**
 * The reading renderer against the editor schema: every node and mark the server accepts has
 * a drawing here, a document reads the same words as the server's plain text of it, and a
 * stored URL with a forbidden scheme never becomes a link or an image.
 */
import { describe, expect, test } from "bun:test";
import { getSchema } from "@tiptap/core";
import { renderToStaticMarkup } from "react-dom/server";
import { contentExtensions } from "../../../../content/extensions";
import { everythingDocument, inline, text, windowWhileTesting } from "../../../../content/testing";
import { plainText } from "../../../../content/plain-text";
import type { DocJson } from "../../../api/client";
import { DocumentView } from "./DocumentView";
import { ImagePolicyContext } from "./page-image";
import { markMapping } from "./marks";
import { nodeMapping } from "./nodes";

windowWhileTesting();
const schema = getSchema(contentExtensions);
const html = (doc: unknown) => renderToStaticMarkup(<DocumentView doc={doc as DocJson} />);

describe("the reading renderer", () => {
  test("draws every node and mark of the editor schema", () => {
    expect(Object.keys(schema.nodes).filter((n) => !(n in nodeMapping))).toEqual([]);
    expect(Object.keys(schema.marks).filter((m) => !(m in markMapping))).toEqual([]);
  });

  test("reads the same words as the server's plain text of a document with every block", () => {
    const doc = everythingDocument();
    const out = html(doc);
    // Compared without whitespace: blocks are separated differently, the words are the same.
    const bare = (s: string) => s.replace(/\s+/g, "");
    // An image's words are its alt text, as in the server's plain text.
    const rendered = out
      .replace(/<img[^>]*alt="([^"]*)"[^>]*>/g, "$1")
      .replace(/<[^>]+>/g, "")
      .replace(/&amp;/g, "&")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'");
    expect(bare(rendered)).toBe(bare(plainText(schema.nodeFromJSON(doc))));
    for (const tag of ["<table", "<blockquote", "<pre", 'data-type="panel"', "<details", 'data-type="taskList"', "<hr", "<mark", "<code"])
      expect(out).toContain(tag);
  });

  test("keeps the text of a link or image whose URL has a forbidden scheme, never the URL", () => {
    const link = (href: string) => inline(text("click", [{ type: "link", attrs: { href } }]));
    expect(html(link("javascript:alert(1)"))).not.toContain("<a");
    expect(html(link(" JaVaScRiPt:alert(1)"))).not.toContain("<a");
    expect(html(link("data:text/html,x"))).not.toContain("<a");
    expect(html(link("https://example.com/"))).toContain(
      '<a href="https://example.com/" target="_blank" rel="noopener noreferrer nofollow">click</a>',
    );
    expect(html(link("/s/ENG/p/1"))).toContain('<a href="/s/ENG/p/1">click</a>');
    const image = (src: string) => ({ type: "doc", content: [{ type: "image", attrs: { src, alt: "x" } }] });
    expect(html(image("javascript:alert(1)"))).not.toContain("<img");
    expect(html(image("/api/attachments/a/view"))).toContain('<img src="/api/attachments/a/view" alt="x"');
  });

  test("an unknown node or mark shows its content instead of failing", () => {
    const out = html({
      type: "doc",
      content: [{ type: "futureBlock", content: [{ type: "text", text: "still here", marks: [{ type: "futureMark" }] }] }],
    });
    expect(out).toContain("still here");
  });

  test("task boxes tick only where the reading view is given onTick (people who may edit), each named by its words", () => {
    const item = (words: string, checked: boolean) => ({
      type: "taskItem",
      attrs: { checked },
      content: [{ type: "paragraph", content: [{ type: "text", text: words }] }],
    });
    const doc = {
      type: "doc",
      content: [{ type: "taskList", content: [item("Write the notes", true), item("Tag the build", false)] }],
    } as unknown as DocJson;
    const reader = renderToStaticMarkup(<DocumentView doc={doc} />);
    expect(reader.match(/disabled/g)).toHaveLength(2);
    expect(reader).toContain('aria-label="Write the notes"');
    const editor = renderToStaticMarkup(<DocumentView doc={doc} onTick={() => {}} />);
    expect(editor).not.toContain("disabled");
    expect(editor).toContain('aria-label="Tag the build"');
  });

  test("an image of another site the instance's image policy does not show is a link with its description, never a broken image", () => {
    const doc = (src: string, alt = "Build status") => ({ type: "doc", content: [{ type: "image", attrs: { src, alt } }] });
    const under = (policy: { restricted: boolean; hosts: string[] }, d: unknown) =>
      renderToStaticMarkup(
        <ImagePolicyContext.Provider value={policy}>
          <DocumentView doc={d as DocJson} />
        </ImagePolicyContext.Provider>,
      );
    const listed = { restricted: true, hosts: ["img.shields.io"] };
    expect(under(listed, doc("https://img.shields.io/b.svg"))).toContain('<img src="https://img.shields.io/b.svg"');
    const other = under(listed, doc("https://evil.example/b.svg"));
    expect(other).not.toContain("<img");
    expect(other).toContain('<a class="image-elsewhere" href="https://evil.example/b.svg"');
    expect(other).toContain(">Build status</a>");
    expect(under({ restricted: false, hosts: [] }, doc("https://evil.example/b.svg"))).toContain("<img");
    // Over plain http never (the policy lets https through only); without a description, the file's name.
    expect(under({ restricted: false, hosts: [] }, doc("http://x.example/a%20b.png", ""))).toContain(">a b.png</a>");
    // Our own attachments always.
    expect(under(listed, doc("/api/attachments/a/view"))).toContain('<img src="/api/attachments/a/view"');
  });
});
