import { describe, expect, test } from "bun:test";
import { docOf, everythingDocument, inline, para, text } from "./testing";
import { checkContentJson } from "./validate";

const plain = (doc: unknown) => checkContentJson(JSON.stringify(doc)).text;

describe("plain text for search", () => {
  test.each<[string, unknown, string]>([
    ["blocks on their own lines", docOf(para(text("one")), { type: "heading", attrs: { level: 2 }, content: [text("two")] }), "one\ntwo"],
    [
      "marks dropped, words kept",
      inline(text("bold", [{ type: "bold" }]), text(" and "), text("linked", [{ type: "link", attrs: { href: "/x" } }])),
      "bold and linked",
    ],
    ["CJK text as is", inline(text("権限の管理について")), "権限の管理について"],
    [
      "mentions by label",
      inline(text("ask "), { type: "mention", attrs: { id: "u-1", label: "李雷" } }, text(" today")),
      "ask @李雷 today",
    ],
    ["mentions without label by id", inline({ type: "mention", attrs: { id: "u-1" } }), "@u-1"],
    ["hard breaks as newlines", inline(text("a"), { type: "hardBreak" }, text("b")), "a\nb"],
    ["empty blocks skipped", docOf(para(), para(text("x")), para()), "x"],
    ["code keeps its lines", docOf({ type: "codeBlock", content: [text("a()\nb()")] }), "a()\nb()"],
    [
      "attachments by file name, images by alt",
      docOf(
        { type: "attachment", attrs: { attachmentId: "a", filename: "report.pdf" } },
        { type: "image", attrs: { src: "/i.png", alt: "A chart" } },
        { type: "image", attrs: { src: "/j.png" } },
      ),
      "report.pdf\nA chart",
    ],
    [
      "nested blocks each on a line",
      docOf({
        type: "bulletList",
        content: [
          {
            type: "listItem",
            content: [para(text("a")), { type: "bulletList", content: [{ type: "listItem", content: [para(text("b"))] }] }],
          },
        ],
      }),
      "a\nb",
    ],
    ["the empty document", docOf(para()), ""],
  ])("%s", (_, doc, expected) => {
    expect(plain(doc)).toBe(expected);
  });

  test("a full page: every cell, panel, expand title and list item, no markup", () => {
    const text = plain(everythingDocument());
    for (const words of [
      "Release plan 管理",
      "@Alice Chen",
      "Merged header",
      "tall cell",
      "A warning panel",
      "Show the details",
      "Hidden until expanded.",
      "nested",
      "todo",
      "budget-2025.xlsx",
      "Architecture diagram",
      "const x = 1;",
    ]) {
      expect(text).toContain(words);
    }
    expect(text).not.toMatch(/[<>{}]|"type"/);
  });
});
