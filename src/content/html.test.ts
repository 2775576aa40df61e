/**
 * The server's HTML of a document against the reading view's React markup: the same elements,
 * classes and attributes, so an export looks like the page. Then what only the server does:
 * escaping, refused schemes, and the rewrites the exports use.
 */
import { describe, expect, test } from "bun:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { DocumentView } from "../web/features/page/render/DocumentView";
import { documentHtml } from "./html";
import { readingStyles } from "./reading-styles";
import { docOf, everythingDocument, inline, para, text, windowWhileTesting } from "./testing";

windowWhileTesting();

/** React's static markup inside the .prose wrapper, its camel-cased HTML attribute names as HTML reads them. */
function reactHtml(doc: unknown): string {
  const out = renderToStaticMarkup(createElement(DocumentView, { doc: doc as never }));
  const inner = out.replace(/^<div class="prose">/, "").replace(/<\/div>$/, "");
  return inner.replace(/ (colSpan|rowSpan|readOnly|tabIndex)=/g, (_, name: string) => ` ${name.toLowerCase()}=`);
}

describe("documentHtml", () => {
  test("draws a document with every block and mark exactly as the reading view does", () => {
    const doc = everythingDocument();
    expect(documentHtml(doc)).toBe(reactHtml(doc));
  });

  test("agrees with the reading view on edge cases: open expands, empty cells, unknown nodes and marks, empty attachments", () => {
    const docs = [
      docOf({
        type: "details",
        attrs: { open: true },
        content: [
          { type: "detailsSummary", content: [text("s")] },
          { type: "detailsContent", content: [para(text("c"))] },
        ],
      }),
      docOf({
        type: "table",
        content: [
          {
            type: "tableRow",
            content: [
              { type: "tableCell", attrs: { colwidth: [100], align: "center" }, content: [para()] },
              { type: "tableCell", attrs: { colwidth: [50] }, content: [para(text("<b>"))] },
            ],
          },
        ],
      }),
      docOf({ type: "futureBlock", content: [{ type: "text", text: "still & here", marks: [{ type: "futureMark" }, { type: "bold" }] }] }),
      docOf(
        { type: "attachment", attrs: { attachmentId: "", filename: "" } },
        { type: "panel", attrs: { kind: "bogus" }, content: [para(text("x"))] },
      ),
      inline({ type: "mention", attrs: { id: "u1", label: null } }, text(`quote " and ' apostrophe`)),
      docOf(
        { type: "image", attrs: { src: "https://example.com/a.png", alt: 'a "quoted" alt', title: "T" } },
        { type: "codeBlock", attrs: { language: null }, content: [text("<script>")] },
      ),
    ];
    for (const doc of docs) expect(documentHtml(doc)).toBe(reactHtml(doc));
  });

  test("escapes every text and attribute, and writes no script", () => {
    const out = documentHtml(
      docOf(
        para(text('<script>alert(1)</script>"&')),
        { type: "image", attrs: { src: 'https://x.test/a.png" onerror="alert(1)', alt: "<img onerror=x>" } },
        inline({ type: "mention", attrs: { id: '"><script>', label: "<b>Eve</b>" } }),
      ),
    );
    expect(out).not.toContain("<script");
    expect(out).not.toContain("<b>");
    expect(out).toContain("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;");
    expect(out).toContain('src="https://x.test/a.png&quot; onerror=&quot;alert(1)"');
  });

  test("a link or image whose URL has a forbidden scheme keeps its text, never the URL", () => {
    const link = (href: string) => documentHtml(inline(text("click", [{ type: "link", attrs: { href } }])));
    for (const bad of [
      "javascript:alert(1)",
      " JaVaScRiPt:alert(1)",
      "data:text/html,x",
      "vbscript:x",
      "java\tscript:x",
      "file:///etc/passwd",
    ]) {
      expect(link(bad)).toBe("<p>click</p>");
    }
    expect(link("mailto:a@b.test")).toBe('<p><a href="mailto:a@b.test">click</a></p>');
    const image = (src: string) => documentHtml(docOf({ type: "image", attrs: { src, alt: "x" } }));
    expect(image("javascript:alert(1)")).toBe("");
    expect(image("data:image/svg+xml,<svg onload=alert(1)>")).toBe("");
  });

  test("rewrites links, images, attachments and mentions through the options, and checks a rewritten link again", () => {
    const doc = docOf(
      para(
        text("page", [{ type: "link", attrs: { href: "/s/ENG/p/1" } }]),
        text("evil", [{ type: "link", attrs: { href: "/s/ENG/p/2" } }]),
      ),
      { type: "image", attrs: { src: "/api/attachments/a1/view", alt: "" } },
      { type: "attachment", attrs: { attachmentId: "a2", filename: "f.pdf" } },
      inline({ type: "mention", attrs: { id: "u1", label: "Old" } }),
    );
    const out = documentHtml(doc, {
      pageHref: (href) => (href.endsWith("/1") ? "../one/index.html" : "javascript:alert(1)"),
      imageSrc: (src) => `data:image/png;base64,${btoa(src)}`,
      attachmentHref: (id, name) => `files/${id}/${name}`,
      mentionName: (id) => `Name of ${id}`,
    });
    expect(out).toContain('<a href="../one/index.html">page</a>evil');
    expect(out).toContain(`src="data:image/png;base64,${btoa("/api/attachments/a1/view")}"`);
    expect(out).toContain('<a href="files/a2/f.pdf">f.pdf</a>');
    expect(out).toContain(">@Name of u1</span>");
  });
});

describe("readingStyles", () => {
  test("carries the reading tokens light and dark (dark by the system's preference) and loads nothing from elsewhere", () => {
    const css = readingStyles();
    expect(css).toContain('.prose div[data-kind="warning"]');
    expect(css).toContain("--panel-warning-bg: #fff5e0;");
    const dark = css.slice(css.indexOf("@media (prefers-color-scheme: dark)"));
    expect(dark).toContain("--bg: #16181b;");
    expect(css).not.toContain('data-theme="dark"');
    expect(css).not.toMatch(/@import|url\(/);
  });
});
