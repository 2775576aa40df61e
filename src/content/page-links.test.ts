/**
 * Links between pages in the one schema: the pageLink node through validation, Markdown both
 * ways, tracked changes and the server's HTML and Markdown exports; which ids a document links
 * to; which pasted addresses name a page of this wiki.
 */
import { describe, expect, test } from "bun:test";
import type { JSONContent } from "@tiptap/core";
import { documentHtml } from "./html";
import { checkContentMarkdown, contentToMarkdown } from "./markdown";
import { pageToMarkdown } from "./markdown-export";
import { linkedPageIds, pageHref, pageOfHref, pageOfPastedUrl, UNSEEN_PAGE } from "./page-links";
import { inline, rejection, text } from "./testing";
import { acceptAll, listChanges, rejectAll, trackChanges } from "./tracked-changes";
import { checkContentJson } from "./validate";

const A = "0190a6c8-0000-7000-8000-00000000000a";
const B = "0190a6c8-0000-7000-8000-00000000000b";
const link = (pageId: string) => ({ type: "pageLink", attrs: { pageId } });
const titles: Record<string, string> = { [A]: "Install <Cairn> & run" };
const resolve = (id: string) => (titles[id] ? { title: titles[id]!, href: `/s/DOCS/p/${id}` } : null);

describe("the pageLink node", () => {
  test("is stored by id alone, and refused without a page id", () => {
    const doc = inline(text("See "), link(A), text("."));
    expect(JSON.parse(checkContentJson(JSON.stringify(doc)).json)).toEqual(doc);
    expect(rejection(JSON.stringify(inline(link("Install"))))).toContain("must be the id of a page (a UUID)");
    expect(rejection(JSON.stringify(inline({ type: "pageLink" })))).toContain("must be the id of a page");
    expect(rejection(JSON.stringify(inline({ type: "pageLink", attrs: { pageId: A, title: "Install" } })))).toContain(
      'unknown attribute "title"',
    );
  });

  test("round-trips through Markdown as [[page:<id>]], which the Markdown API also accepts", () => {
    const doc = inline(text("See "), link(A), text(" and "), link(B));
    const markdown = contentToMarkdown(checkContentJson(JSON.stringify(doc)).json);
    expect(markdown).toBe(`See [[page:${A}]] and [[page:${B}]]\n`);
    expect(JSON.parse(checkContentMarkdown(markdown).json)).toEqual(doc);
    // Something else in double brackets stays text; a bad id is a 400 naming contentMarkdown.
    expect(JSON.parse(checkContentMarkdown("[[Install]] and [[page]]").json)).toEqual(inline(text("[[Install]] and [[page]]")));
    expect(() => checkContentMarkdown("[[page:nope]]")).toThrow(/must be the id of a page/);
  });

  test("adds nothing to the search text: the title belongs to the other page", () => {
    expect(checkContentJson(JSON.stringify(inline(text("See "), link(A)))).text).toBe("See ");
  });

  test("is tracked like a word, and accepting or rejecting gives either version back", () => {
    const meta = { id: "c1", authorId: null, createdAt: "2026-11-24T10:00:00Z" };
    const before = inline(text("see "), link(A), text(" now"));
    const after = inline(text("see "), link(B), text(" now"));
    const result = trackChanges(before as JSONContent, after as JSONContent, meta);
    expect(() => checkContentJson(JSON.stringify(result))).not.toThrow();
    expect(acceptAll(result)).toEqual(after as JSONContent);
    expect(rejectAll(result)).toEqual(before as JSONContent);
    expect(listChanges(result).map((c) => [c.kind, c.text])).toEqual([
      ["deletion", "[page link]"],
      ["insertion", "[page link]"],
    ]);
  });
});

describe("exports", () => {
  test("HTML shows the current title, escaped, linked where the export says; an unseen page shows no title", () => {
    const doc = inline(link(A), text(" "), link(B));
    expect(documentHtml(doc, { pageLink: resolve })).toBe(
      `<p><a class="page-link" data-type="pageLink" data-page-id="${A}" href="/s/DOCS/p/${A}">Install &lt;Cairn&gt; &amp; ` +
        `run</a> <span class="page-link page-link-unseen" data-type="pageLink">${UNSEEN_PAGE}</span></p>`,
    );
    // Without a resolver nothing can be shown: never a title, never an id.
    expect(documentHtml(doc)).not.toContain(A);
    // A resolver cannot smuggle a script in.
    expect(documentHtml(inline(link(A)), { pageLink: () => ({ title: "x", href: "javascript:alert(1)" }) })).not.toContain("javascript");
  });

  test("Markdown writes the current title as a link; an unseen page as plain words", () => {
    const md = pageToMarkdown("Guide", inline(text("See "), link(A), text(" and "), link(B)) as JSONContent, {
      pageLink: (id) => (id === A ? { title: "Install Cairn", href: `/s/DOCS/p/${A}` } : null),
    });
    expect(md).toBe(`# Guide\n\nSee [Install Cairn](/s/DOCS/p/${A}) and ${UNSEEN_PAGE}\n`);
  });
});

describe("which pages a document links to", () => {
  test("pageLink nodes and hrefs of pages (/p/<id>, /s/KEY/p/<id>-slug), each once, never a sub-page path or another host", () => {
    const linked = (href: string) => text("x", [{ type: "link", attrs: { href } }]);
    const doc = inline(
      link(A),
      linked(pageHref(B, "#setup")),
      linked(`/s/DOCS/p/${A}-install`),
      linked(`/s/DOCS/p/${B}/edit`),
      linked(`https://other.example/p/${B}`),
      linked("/s/DOCS"),
    );
    expect(linkedPageIds(doc)).toEqual([A, B]);
    expect(pageOfHref(`/s/DOCS/p/${A.toUpperCase()}-x?y=1#z`)).toEqual({ pageId: A, fragment: "#z" });
    expect(pageOfHref(`/s/DOCS/p/${A}/history/2`)).toBeNull();
  });

  test("a pasted address of a page names it on any host name the wiki is reached by", () => {
    for (const host of ["http://localhost:3000", "http://wiki.tail1234.ts.net", "https://192.168.1.20:8443"]) {
      expect(pageOfPastedUrl(`${host}/s/DOC/p/${A}-install-cairn`)).toEqual({ pageId: A, fragment: "" });
      expect(pageOfPastedUrl(`${host}/p/${A}#step-2`)).toEqual({ pageId: A, fragment: "#step-2" });
    }
    for (const other of [
      `http://x.test/s/DOC/p/${A}/edit`,
      "https://example.com/docs",
      `javascript:/p/${A}`,
      `see http://x.test/p/${A}`,
      "not a url",
    ])
      expect(pageOfPastedUrl(other)).toBeNull();
  });
});
