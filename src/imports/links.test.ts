/** References inside imported content rewritten to the new rows (links.ts). */
import { describe, expect, test } from "bun:test";
import type { JSONContent } from "@tiptap/core";
import { newTally, rewriteCommentBody, rewriteContent, rewriteHref, type RefTargets } from "./links";

const OLD_PAGE = "0190a6c8-0000-7000-8000-00000000aaaa";
const targets: RefTargets = {
  key: "NEW",
  oldKey: "OLD",
  pages: new Map([
    ["p1", "new-page-1"],
    [OLD_PAGE, "new-page-2"],
  ]),
  attachments: new Map([
    ["a1", "new-att-1"],
    ["0190a6c8-0000-7000-8000-0000000000f1", "new-att-2"],
  ]),
  comments: new Map([["c1", "new-comment-1"]]),
  authors: new Map([
    ["a1", { id: "user-1", name: "Ann" }],
    ["a2", { id: null, name: "Bob Gone" }],
  ]),
};

describe("rewriteHref", () => {
  test.each([
    // A link to an imported page is stored by id (content/page-links.ts), the fragment kept.
    ["cairn-page:p1", "/p/new-page-1"],
    ["cairn-page:p1#setup", "/p/new-page-1#setup"],
    [`/s/OLD/p/${OLD_PAGE}-a-slug#h`, "/p/new-page-2#h"],
    [`/p/${OLD_PAGE}#h`, "/p/new-page-2#h"],
    ["/p/0190a6c8-0000-7000-8000-00000000ffff", "/p/0190a6c8-0000-7000-8000-00000000ffff"],
    [`/s/OLD/p/${OLD_PAGE}-a-slug/history/3?x=1#h`, "/s/NEW/p/new-page-2-a-slug/history/3?x=1#h"],
    [`https://wiki.example.com/s/old/p/${OLD_PAGE}`, "/p/new-page-2"],
    // Another space's page, or one of the old space that is not in the pack: left as it was.
    [`/s/ELSE/p/${OLD_PAGE}`, `/s/ELSE/p/${OLD_PAGE}`],
    ["/s/OLD/p/0190a6c8-0000-7000-8000-00000000ffff", "/s/OLD/p/0190a6c8-0000-7000-8000-00000000ffff"],
    ["cairn-attachment:a1", "/api/attachments/new-att-1/download"],
    ["/api/attachments/0190a6c8-0000-7000-8000-0000000000f1/download", "/api/attachments/new-att-2/download"],
    ["https://example.com/docs", "https://example.com/docs"],
  ])("%s → %s", (href, expected) => {
    expect(rewriteHref(href, targets, newTally())).toBe(expected);
  });

  test("a ref that names nothing imported: no link (counted)", () => {
    const tally = newTally();
    expect(rewriteHref("cairn-page:nowhere", targets, tally)).toBeNull();
    expect(rewriteHref("cairn-attachment:nothing", targets, tally)).toBeNull();
    expect(tally.deadLinks).toBe(2);
  });
});

describe("rewriteContent", () => {
  test("a page link node of the pack gets its page's new id; one to a page outside it keeps its id", () => {
    const other = "0190a6c8-0000-7000-8000-00000000bbbb";
    const doc: JSONContent = {
      type: "doc",
      content: [
        {
          type: "paragraph",
          content: [
            { type: "pageLink", attrs: { pageId: OLD_PAGE.toUpperCase() } },
            { type: "pageLink", attrs: { pageId: other } },
          ],
        },
      ],
    };
    rewriteContent(doc, targets, newTally());
    expect(doc.content![0]!.content!.map((n) => n.attrs!.pageId)).toEqual(["new-page-2", other]);
  });

  test("mentions, tracked-change authors, comment marks, images and file blocks", () => {
    const doc: JSONContent = {
      type: "doc",
      content: [
        {
          type: "paragraph",
          content: [
            { type: "mention", attrs: { id: "author:a1", label: "Ann" } },
            { type: "mention", attrs: { id: "author:a2", label: "Bob" } },
            { type: "text", text: "new", marks: [{ type: "insertion", attrs: { id: "ch", authorId: "author:a2", createdAt: null } }] },
            { type: "text", text: "old", marks: [{ type: "deletion", attrs: { id: "ch", authorId: "author:a1", createdAt: null } }] },
            { type: "text", text: "noted", marks: [{ type: "comment", attrs: { commentId: "c1" } }] },
          ],
        },
        { type: "image", attrs: { src: "cairn-attachment:a1", alt: "x" } },
        { type: "image", attrs: { src: "cairn-attachment:gone", alt: "y" } },
        { type: "attachment", attrs: { attachmentId: "a1", filename: "f.pdf" } },
      ],
    };
    const tally = newTally();
    const out = rewriteContent(doc, targets, tally);
    const para = out.content![0].content!;
    expect(para[0].attrs).toEqual({ id: "user-1", label: "Ann" });
    expect(para[1]).toEqual({ type: "text", text: "@Bob Gone" });
    expect(para[2].marks![0].attrs!.authorId).toBeNull();
    expect(para[3].marks![0].attrs!.authorId).toBe("user-1");
    expect(para[4].marks![0].attrs!.commentId).toBe("new-comment-1");
    expect(out.content!.map((n) => n.type)).toEqual(["paragraph", "image", "attachment"]);
    expect(out.content![1].attrs!.src).toBe("/api/attachments/new-att-1/view");
    expect(out.content![2].attrs!.attachmentId).toBe("new-att-1");
    expect(tally).toEqual({ deadLinks: 0, unknownAttachments: 1, mentionsAsText: 1 });
  });

  test("a document nested far deeper than a recursion can go is walked (the schema check refuses it later)", () => {
    let deep: JSONContent = { type: "text", text: "x" };
    for (let i = 0; i < 200_000; i++) deep = { type: "blockquote", content: [deep] };
    expect(() => rewriteContent({ type: "doc", content: [deep] }, targets, newTally())).not.toThrow();
  });
});

test("comment bodies: known people keep their mention, the others become @Name", () => {
  const tally = newTally();
  expect(rewriteCommentBody("Hi @[Ann](author:a1) and @[Bob](author:a2), see @[Zed](user-9)", targets, tally)).toBe(
    "Hi @[Ann](user-1) and @Bob, see @[Zed](user-9)",
  );
  expect(tally.mentionsAsText).toBe(1);
});
