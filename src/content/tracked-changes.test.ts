import { describe, expect, test } from "bun:test";
import type { JSONContent } from "@tiptap/core";
import { sampleDocument } from "./sample";
import { contentSchema } from "./schema";
import { docOf, everythingDocument, inline, para, text } from "./testing";
import {
  acceptAll,
  acceptChange,
  hasTrackedChanges,
  listChanges,
  rejectAll,
  rejectChange,
  stripTrackedChanges,
  trackChanges,
} from "./tracked-changes";
import { randomEdits } from "./tracked-testing";
import { checkContentJson } from "./validate";

const meta = { id: "ext-1", authorId: "u-9", createdAt: "2026-11-24T10:00:00Z" };
const attrs = (n: number) => ({ id: `ext-1.${n}`, authorId: "u-9", createdAt: "2026-11-24T10:00:00Z" });
const ins = (n: number) => ({ type: "insertion", attrs: attrs(n) });
const del = (n: number) => ({ type: "deletion", attrs: attrs(n) });

/** As the server stores it: defaults filled in, adjacent text with equal marks joined. */
const norm = (doc: unknown) => contentSchema.nodeFromJSON(doc).toJSON();

/** trackChanges, checked to give a document the server (and so the editor) accepts. */
function tracked(w: unknown, i: unknown, m = meta): JSONContent {
  const result = trackChanges(w as JSONContent, i as JSONContent, m);
  expect(() => checkContentJson(JSON.stringify(result))).not.toThrow();
  return result;
}

function expectRoundTrips(w: unknown, i: unknown) {
  const result = tracked(w, i);
  expect(acceptAll(result)).toEqual(norm(i));
  expect(rejectAll(result)).toEqual(norm(w));
  return result;
}

describe("trackChanges on text", () => {
  test("marks a replaced word as one change: the old word deleted, the new one inserted, same id", () => {
    const result = expectRoundTrips(inline(text("Hello big world")), inline(text("Hello small world")));
    expect(result).toEqual(norm(inline(text("Hello "), text("big", [del(1)]), text("small", [ins(1)]), text(" world"))));
  });

  test("gives each separate hunk its own id, in document order", () => {
    const result = expectRoundTrips(inline(text("one two three four five")), inline(text("one 2 three four 5")));
    expect(listChanges(result).map((c) => [c.id, c.kind, c.text])).toEqual([
      ["ext-1.1", "deletion", "two"],
      ["ext-1.1", "insertion", "2"],
      ["ext-1.2", "deletion", "five"],
      ["ext-1.2", "insertion", "5"],
    ]);
  });

  test("keeps spaces between two changed words inside one change instead of cutting it in two", () => {
    const result = expectRoundTrips(inline(text("a b c")), inline(text("x y z")));
    expect(result).toEqual(norm(inline(text("a b c", [del(1)]), text("x y z", [ins(1)]))));
  });

  test("an identical document comes back unchanged, without marks", () => {
    for (const doc of [sampleDocument(1, 400), docOf(para()), docOf(para(text("x")), { type: "horizontalRule" })]) {
      const result = tracked(doc, doc);
      expect(result).toEqual(norm(doc));
      expect(hasTrackedChanges(result)).toBe(false);
    }
  });

  test("a formatting change shows as the plain word deleted and the formatted one inserted", () => {
    const result = expectRoundTrips(inline(text("make this bold")), inline(text("make "), text("this", [{ type: "bold" }]), text(" bold")));
    expect(result).toEqual(norm(inline(text("make "), text("this", [del(1)]), text("this", [{ type: "bold" }, ins(1)]), text(" bold"))));
  });

  test("inline code, links and comments keep their marks and carry the tracked change too", () => {
    const code = [{ type: "code" }];
    const link = [{ type: "link", attrs: { href: "https://example.com" } }];
    const w = inline(text("run "), text("npm test", code), text(" see "), text("docs", link));
    const i = inline(text("run "), text("bun test", code), text(" see "), text("the docs", link));
    const result = expectRoundTrips(w, i);
    expect(listChanges(result).map((c) => c.text)).toEqual(["npm", "bun", "the "]);
  });

  test("mentions and hard breaks are tracked like words", () => {
    const mention = { type: "mention", attrs: { id: "u-1", label: "Alice" } };
    const result = expectRoundTrips(
      inline(text("ask "), mention, text(" now")),
      inline(text("ask"), { type: "hardBreak" }, text("Bob now")),
    );
    expect(listChanges(result).map((c) => [c.kind, c.text])).toEqual([
      ["deletion", " @Alice "],
      ["insertion", "\nBob "],
    ]);
  });

  test("Chinese and Japanese text is compared character by character", () => {
    const result = expectRoundTrips(inline(text("会議の設定")), inline(text("会議の管理")));
    expect(listChanges(result).map((c) => c.text)).toEqual(["設定", "管理"]);
  });
});

describe("trackChanges on blocks", () => {
  test("a removed block stays with its text marked deleted; an added block has its text marked inserted", () => {
    const w = docOf(para(text("keep")), para(text("drop me")), para(text("also keep")));
    const i = docOf(para(text("keep")), para(text("also keep")), { type: "heading", attrs: { level: 2 }, content: [text("New end")] });
    const result = expectRoundTrips(w, i);
    expect(result).toEqual(
      norm(
        docOf(para(text("keep")), para(text("drop me", [del(1)])), para(text("also keep")), {
          type: "heading",
          attrs: { level: 2 },
          content: [text("New end", [ins(2)])],
        }),
      ),
    );
  });

  test("a paragraph turned into a heading shows as the paragraph removed and the heading added", () => {
    expectRoundTrips(docOf(para(text("Title"))), docOf({ type: "heading", attrs: { level: 1 }, content: [text("Title")] }));
  });

  test("an edit deep in a list, a quote, a panel, a task list and a table is diffed word by word in place", () => {
    const doc = everythingDocument();
    const stripped = stripTrackedChanges(doc as JSONContent);
    const edited = JSON.parse(
      JSON.stringify(stripped)
        .replaceAll("nested", "deeply nested")
        .replaceAll("Quoted wisdom", "Quoted folly")
        .replaceAll("A note panel", "A changed note panel")
        .replaceAll("todo", "to do")
        .replaceAll("plain cell", "plain table cell")
        .replaceAll("Hidden until", "Shown when"),
    );
    const result = expectRoundTrips(stripped, edited);
    expect(listChanges(result).map((c) => [c.kind, c.text])).toEqual([
      ["insertion", "deeply "],
      ["deletion", "todo"],
      ["insertion", "to do"],
      ["deletion", "wisdom"],
      ["insertion", "folly"],
      ["insertion", "table "],
      ["insertion", "changed "],
      ["deletion", "Hidden until"],
      ["insertion", "Shown when"],
    ]);
  });

  test("a removed list item, table row and details block are whole-block changes that accept and reject exactly", () => {
    const list = (...items: string[]) => ({
      type: "bulletList",
      content: items.map((t) => ({ type: "listItem", content: [para(text(t))] })),
    });
    expectRoundTrips(docOf(list("a", "b", "c")), docOf(list("a", "c")));
    expectRoundTrips(docOf(list("a", "b")), docOf(list("a", "b", "c d e")));
    const details = {
      type: "details",
      content: [
        { type: "detailsSummary", content: [text("More")] },
        { type: "detailsContent", content: [para(text("inside"))] },
      ],
    };
    expectRoundTrips(docOf(para(text("x")), details), docOf(para(text("x"))));
    expectRoundTrips(docOf(para(text("x"))), docOf(para(text("x")), details));
  });
});

describe("a page rewritten entirely", () => {
  test("still accepts and rejects exactly, opens in the editor, and numbers its changes in document order", () => {
    // Without code blocks, whose text cannot be marked, nor heading levels, which follow the incoming page.
    const prose = (seed: number) => {
      const doc = sampleDocument(seed, 600);
      const blocks = doc.content.filter((block) => block.type !== "codeBlock");
      return { ...doc, content: blocks.map((b) => (b.type === "heading" ? { ...b, attrs: { level: 2 } } : b)) };
    };
    const w = prose(3);
    const i = prose(4);
    const result = expectRoundTrips(w, i);
    const numbers = [...new Set(listChanges(result).map((c) => Number(c.id.split(".")[1])))];
    expect(numbers.length).toBeGreaterThan(10);
    expect(numbers).toEqual(numbers.map((_, n) => n + 1));
  });
});

describe("accepting and rejecting", () => {
  const w = inline(text("one two three four five"));
  const i = inline(text("one 2 three four 5"));

  test("one change at a time, in any order, ends where acceptAll or rejectAll does", () => {
    const result = tracked(w, i);
    const ids = [...new Set(listChanges(result).map((c) => c.id))];
    expect(ids).toEqual(["ext-1.1", "ext-1.2"]);
    expect(acceptChange(acceptChange(result, ids[1]), ids[0])).toEqual(norm(i));
    expect(rejectChange(rejectChange(result, ids[0]), ids[1])).toEqual(norm(w));
    expect(acceptChange(result, ids[0])).toEqual(norm(inline(text("one 2 three four "), text("five", [del(2)]), text("5", [ins(2)]))));
    expect(rejectChange(result, ids[0])).toEqual(norm(inline(text("one two three four "), text("five", [del(2)]), text("5", [ins(2)]))));
    expect(acceptChange(result, "no-such-id")).toEqual(result);
  });

  test("listChanges reports each change once per kind, with who and when; hasTrackedChanges sees them", () => {
    const doc = everythingDocument() as JSONContent;
    expect(hasTrackedChanges(doc)).toBe(true);
    expect(listChanges(doc)).toEqual([
      { id: "ch-1", kind: "insertion", text: "added", authorId: "u-2", createdAt: "2025-03-01T10:00:00Z" },
      { id: "ch-1", kind: "deletion", text: "removed", authorId: "u-2", createdAt: "2025-03-01T10:00:00Z" },
    ]);
    expect(hasTrackedChanges(acceptAll(doc))).toBe(false);
    expect(hasTrackedChanges(rejectAll(doc))).toBe(false);
    const flat = (d: JSONContent) => JSON.stringify(d);
    expect(flat(acceptAll(doc))).toContain('"text":" added see "');
    expect(flat(rejectAll(doc))).toContain('"text":" removed see "');
  });

  test("a document without changes is left as it is; stripTrackedChanges is acceptAll", () => {
    const doc = sampleDocument(3, 300);
    expect(acceptAll(doc)).toEqual(norm(doc));
    expect(rejectAll(doc)).toEqual(norm(doc));
    expect(hasTrackedChanges(doc)).toBe(false);
    expect(stripTrackedChanges).toBe(acceptAll);
  });
});

describe("invariants over random edits of real-looking pages (property test)", () => {
  test.each([1, 2, 3, 4, 5, 6, 7, 8])(
    "seed %i: accept all (or each change in turn) gives the incoming page, reject all the working one, and all open in the editor",
    (seed) => {
      for (let round = 0; round < 6; round++) {
        const w = sampleDocument(seed * 100 + round, 250);
        const i = randomEdits(w, seed * 1000 + round, 1 + ((seed + round) % 8));
        const result = expectRoundTrips(w, i);
        // One change at a time, last first, ends in the same place.
        const ids = [...new Set(listChanges(result).map((c) => c.id))].reverse();
        expect(ids.reduce(acceptChange, result)).toEqual(norm(i));
        expect(ids.reduce(rejectChange, result)).toEqual(norm(w));
      }
    },
  );
});
