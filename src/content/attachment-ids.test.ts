import { describe, expect, test } from "bun:test";
import { renameAttachments, renameAttachmentsInJson } from "./attachment-ids";

const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";
const C = "33333333-3333-4333-8333-333333333333";

const doc = () => ({
  type: "doc",
  content: [
    { type: "attachment", attrs: { attachmentId: A, filename: "a.pdf", size: 1, contentType: "application/pdf" } },
    { type: "image", attrs: { src: `/api/attachments/${A}/view`, alt: `not ${A}` } },
    { type: "image", attrs: { src: `https://wiki.example/api/attachments/${C}/view?x=1` } },
    {
      type: "paragraph",
      content: [{ type: "text", text: `see ${A}`, marks: [{ type: "link", attrs: { href: `/api/attachments/${A}/download` } }] }],
    },
    { type: "image", attrs: { src: `https://elsewhere.example/${A}.png` } },
  ],
});

describe("renameAttachments", () => {
  test("renames attachment blocks, our attachment addresses in images and links, and nothing else", () => {
    const d = doc();
    expect(renameAttachments(d, new Map([[A, B]]))).toBe(true);
    expect(d.content[0].attrs!.attachmentId).toBe(B);
    expect(d.content[1].attrs!.src).toBe(`/api/attachments/${B}/view`);
    // Text and other attributes keep the old id: only references are renamed.
    expect(d.content[1].attrs!.alt).toBe(`not ${A}`);
    expect((d.content[3].content![0] as { text: string }).text).toBe(`see ${A}`);
    expect((d.content[3].content![0] as { marks: { attrs: { href: string } }[] }).marks[0].attrs.href).toBe(
      `/api/attachments/${B}/download`,
    );
    // An attachment not in the map, and another site's address holding the id, stay.
    expect(d.content[2].attrs!.src).toBe(`https://wiki.example/api/attachments/${C}/view?x=1`);
    expect(d.content[4].attrs!.src).toBe(`https://elsewhere.example/${A}.png`);
  });

  test("a document with nothing to rename answers the same text", () => {
    const json = JSON.stringify(doc());
    expect(renameAttachmentsInJson(json, new Map([[B, C]]))).toBe(json);
    expect(renameAttachmentsInJson(json, new Map())).toBe(json);
    expect(JSON.parse(renameAttachmentsInJson(json, new Map([[C, B]]))).content[2].attrs.src).toBe(
      `https://wiki.example/api/attachments/${B}/view?x=1`,
    );
  });
});
