/**
 * One rule says where a link goes (urls.ts's linkTarget), and every renderer follows it: the
 * reading view, the server's HTML (page export, PDF, static site) and the Markdown export. A
 * reference a browser would resolve on another host (`/\host`, `//host`, `\\host`,
 * `https:host`) is never drawn as a path of this wiki.
 */
import { describe, expect, test } from "bun:test";
import type { JSONContent } from "@tiptap/core";
import { renderToStaticMarkup } from "react-dom/server";
import { siteHtmlOptions } from "../exports/site-links";
import type { DocJson } from "../web/api/client";
import { DocumentView } from "../web/features/page/render/DocumentView";
import { documentHtml } from "./html";
import { pageToMarkdown } from "./markdown-export";
import { inline, text, windowWhileTesting } from "./testing";
import { linkTarget } from "./urls";

windowWhileTesting();

// [as stored, what it is, the href a reader gets (undefined: no link)]
const CASES: Array<[string, "internal" | "web" | "other" | undefined, string | undefined]> = [
  ["/\\evil.example/x", "web", "https://evil.example/x"],
  ["//evil.example/x", "web", "https://evil.example/x"],
  ["\\\\evil.example\\x", "web", "https://evil.example/x"],
  ["\\/evil.example/x", "web", "https://evil.example/x"],
  ["https:evil.example/x", "web", "https://evil.example/x"],
  ["https:\\\\evil.example\\x", "web", "https://evil.example/x"],
  ["http:/evil.example/x", "web", "http://evil.example/x"],
  [" //evil.example/x", "web", "https://evil.example/x"],
  ["https://example.com/a?b#c", "web", "https://example.com/a?b#c"],
  ["mailto:ada@example.com", "other", "mailto:ada@example.com"],
  ["/p/0190a2b4-0000-7000-8000-000000000001#intro", "internal", "/p/0190a2b4-0000-7000-8000-000000000001#intro"],
  ["/s/DOCS", "internal", "/s/DOCS"],
  ["guides/install", "internal", "guides/install"],
  ["#part-two", "internal", "#part-two"],
  ["\\s\\DOCS", "internal", "/s/DOCS"],
  ["/%5Cevil.example/x", "internal", "/%5Cevil.example/x"],
  ["javascript:alert(1)", undefined, undefined],
  ["java\tscript:alert(1)", undefined, undefined],
  ["https://", undefined, undefined],
];

const doc = (href: string) => inline(text("click", [{ type: "link", attrs: { href } }]));
/** Every <a …> of an HTML string, as its href and whether it opens a new tab. */
function anchors(html: string): Array<{ href: string; newTab: boolean }> {
  return [...html.matchAll(/<a\b([^>]*)>/g)].map((m) => ({
    href: (/href="([^"]*)"/.exec(m[1]!)?.[1] ?? "").replace(/&amp;/g, "&").replace(/&#x27;/g, "'"),
    newTab: /target="_blank"/.test(m[1]!),
  }));
}
const expected = (kind: string | undefined, href: string | undefined) => (kind ? [{ href: href!, newTab: kind === "web" }] : []);

describe("linkTarget", () => {
  test.each(CASES)("%j is %s", (stored, kind, href) => {
    expect(linkTarget(stored)).toEqual(kind ? { kind, href: href! } : undefined);
  });
});

describe("every renderer follows it", () => {
  test.each(CASES)("%j in the reading view", (stored, kind, href) => {
    expect(anchors(renderToStaticMarkup(<DocumentView doc={doc(stored) as DocJson} />))).toEqual(expected(kind, href));
  });

  test.each(CASES)("%j in the server's HTML (page export, PDF)", (stored, kind, href) => {
    expect(anchors(documentHtml(doc(stored)))).toEqual(expected(kind, href));
  });

  test.each(CASES)("%j in the static site (no base URL: a path of the instance loses its link)", (stored, kind, href) => {
    const links = { spaceKey: "DOCS", baseUrl: null, pageDirs: new Map(), files: new Map(), downloads: new Map(), titleOf: () => null };
    const out = anchors(documentHtml(doc(stored), siteHtmlOptions(links, 1)));
    if (kind === "web" || kind === "other") expect(out).toEqual(expected(kind, href));
    else if (kind === "internal" && href!.startsWith("/"))
      expect(out.every((a) => !a.href.startsWith("/") && !a.href.includes("evil.example"))).toBe(true);
    else expect(out.every((a) => !/^(\/|\\)/.test(a.href))).toBe(true);
  });

  test.each(CASES)("%j in the Markdown export (paths made absolute on the base URL)", (stored, kind, href) => {
    const md = pageToMarkdown("T", doc(stored) as JSONContent, { baseUrl: "https://wiki.example" });
    if (!kind) return expect(md).not.toContain("](");
    const absolute = kind === "internal" && href!.startsWith("/") ? `https://wiki.example${href}` : href!;
    expect(md).toContain(`](${absolute.replace(/ /g, "%20")}`);
  });
});

describe("the sign-in screen's return path follows it too", () => {
  test.each(CASES)("%j", async (stored, kind, href) => {
    const { safeRedirect } = await import("../web/app/session");
    expect(safeRedirect(stored)).toBe(kind === "internal" && href!.startsWith("/") ? href! : "/");
  });
});
