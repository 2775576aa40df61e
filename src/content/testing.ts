/** Documents and helpers shared by the content tests (and handy for later API tests). */
import { afterAll, beforeAll, expect } from "bun:test";
import { AppError } from "../platform/errors";
import { checkContentJson } from "./validate";

const text = (t: string, marks?: unknown[]) => (marks ? { type: "text", text: t, marks } : { type: "text", text: t });
const para = (...content: unknown[]) => (content.length ? { type: "paragraph", content } : { type: "paragraph" });

/** One realistic page using every block and mark of the editor schema (docs/decisions.md). */
export function everythingDocument() {
  return {
    type: "doc",
    content: [
      { type: "heading", attrs: { level: 1 }, content: [text("Release plan 管理")] },
      ...[2, 3, 4, 5, 6].map((level) => ({ type: "heading", attrs: { level }, content: [text(`Level ${level}`)] })),
      para(
        text("Owner: "),
        { type: "mention", attrs: { id: "0190a6c8-0000-7000-8000-000000000001", label: "Alice Chen" } },
        text(" with "),
        text("bold", [{ type: "bold" }]),
        text(" "),
        text("italic", [{ type: "italic" }]),
        text(" "),
        text("under", [{ type: "underline" }]),
        text(" "),
        text("struck", [{ type: "strike" }]),
        text(" "),
        text("npm test", [{ type: "code" }, { type: "link", attrs: { href: "https://example.com/ci" } }]),
        text(" "),
        text("marked", [{ type: "highlight" }]),
        text(" H"),
        text("2", [{ type: "subscript" }]),
        text("O x"),
        text("2", [{ type: "superscript" }]),
        { type: "hardBreak" },
        text("discussed", [
          { type: "comment", attrs: { commentId: "c-1" } },
          { type: "comment", attrs: { commentId: "c-2" } },
        ]),
        text(" "),
        text("added", [{ type: "insertion", attrs: { id: "ch-1", authorId: "u-2", createdAt: "2025-03-01T10:00:00Z" } }]),
        text("removed", [{ type: "deletion", attrs: { id: "ch-1", authorId: "u-2", createdAt: "2025-03-01T10:00:00Z" } }]),
        text(" see "),
        text("the wiki", [{ type: "link", attrs: { href: "/spaces/ENG/pages/42" } }]),
      ),
      {
        type: "bulletList",
        content: [
          {
            type: "listItem",
            content: [para(text("first")), { type: "bulletList", content: [{ type: "listItem", content: [para(text("nested"))] }] }],
          },
          { type: "listItem", content: [para(text("second"))] },
        ],
      },
      { type: "orderedList", attrs: { start: 3, type: null }, content: [{ type: "listItem", content: [para(text("third"))] }] },
      {
        type: "taskList",
        content: [
          { type: "taskItem", attrs: { checked: true }, content: [para(text("done"))] },
          { type: "taskItem", attrs: { checked: false }, content: [para(text("todo"))] },
        ],
      },
      { type: "blockquote", content: [para(text("Quoted wisdom."))] },
      { type: "codeBlock", attrs: { language: "typescript" }, content: [text("const x = 1;\nconsole.log(x);")] },
      { type: "horizontalRule" },
      {
        type: "table",
        content: [
          {
            type: "tableRow",
            content: [
              { type: "tableHeader", attrs: { colspan: 2, rowspan: 1, colwidth: [120, 200] }, content: [para(text("Merged header"))] },
            ],
          },
          {
            type: "tableRow",
            content: [
              { type: "tableCell", attrs: { colspan: 1, rowspan: 2, colwidth: null }, content: [para(text("tall cell"))] },
              { type: "tableCell", content: [para(text("plain cell"))] },
            ],
          },
          { type: "tableRow", content: [{ type: "tableCell", attrs: { align: "right" }, content: [para(text("42"))] }] },
        ],
      },
      {
        type: "image",
        attrs: { src: "/api/attachments/a-1/download", alt: "Architecture diagram", title: null, width: 640, height: null },
      },
      {
        type: "attachment",
        attrs: { attachmentId: "a-2", filename: "budget-2025.xlsx", size: 48213, contentType: "application/vnd.ms-excel" },
      },
      ...["info", "note", "warning", "success", "error"].map((kind) => ({
        type: "panel",
        attrs: { kind },
        content: [para(text(`A ${kind} panel`))],
      })),
      {
        type: "details",
        content: [
          { type: "detailsSummary", content: [text("Show the details")] },
          { type: "detailsContent", content: [para(text("Hidden until expanded."))] },
        ],
      },
    ],
  };
}

/** A doc of the given blocks, or of one paragraph holding the given inline nodes. */
export const docOf = (...content: unknown[]) => ({ type: "doc", content });
export const inline = (...content: unknown[]) => docOf(para(...content));
export { para, text };

/** The reason of the 400, without the "contentJson: " prefix; fails the test on anything else. */
export function rejection(input: unknown): string {
  try {
    checkContentJson(input);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const e = error as AppError;
    expect(e.status).toBe(400);
    expect(e.extras.field).toBe("contentJson");
    return e.extras.errors!.contentJson[0];
  }
  throw new Error(`accepted: ${String(input).slice(0, 200)}`);
}

/**
 * The reading view asks window.location whether a link leaves the site. A file of tests that
 * renders it calls this at its top: the stand-in is set only while that file's tests run, since
 * other files check that the server's code runs with no DOM at all.
 */
export function windowWhileTesting(): void {
  const had = "window" in globalThis;
  beforeAll(() => {
    if (!had) (globalThis as { window?: unknown }).window = { location: { origin: "http://cairn.test" } };
  });
  afterAll(() => {
    if (!had) delete (globalThis as { window?: unknown }).window;
  });
}
