/**
 * Tracked changes around the edges: what the schema cannot mark (it follows the incoming version
 * untracked, so accept all stays exact and reject all cannot bring it back), tables, and a working
 * copy that still holds changes from an earlier external edit that nobody has reviewed yet.
 */
import { describe, expect, test } from "bun:test";
import type { JSONContent } from "@tiptap/core";
import { sampleDocument } from "./sample";
import { contentSchema } from "./schema";
import { docOf, everythingDocument, inline, para, text } from "./testing";
import { acceptAll, listChanges, rejectAll, trackChanges } from "./tracked-changes";
import { randomEdits } from "./tracked-testing";
import { checkContentJson } from "./validate";

const meta = (id: string) => ({ id, authorId: "u-9", createdAt: "2026-11-24T10:00:00Z" });
const norm = (doc: unknown) => contentSchema.nodeFromJSON(doc).toJSON();
const line = (t: string) => inline(text(t)) as JSONContent;

function tracked(w: unknown, i: unknown, id = "ext-2"): JSONContent {
  const result = trackChanges(w as JSONContent, i as JSONContent, meta(id));
  expect(() => checkContentJson(JSON.stringify(result))).not.toThrow();
  expect(acceptAll(result)).toEqual(norm(i));
  return result;
}

const code = (t: string, language = "sql") => ({ type: "codeBlock", attrs: { language }, content: [text(t)] });
const image = { type: "image", attrs: { src: "https://example.com/a.png" } };
const heading = (level: number, t: string) => ({ type: "heading", attrs: { level }, content: [text(t)] });
const cell = (...content: unknown[]) => ({ type: "tableCell", content: content.length ? content : [para()] });
const table = (...rows: string[][]) => ({
  type: "table",
  content: rows.map((r) => ({ type: "tableRow", content: r.map((t) => cell(t ? para(text(t)) : para())) })),
});

describe("what the schema cannot mark follows the incoming version, untracked", () => {
  test(
    "an image, attachment or rule added is simply there; one removed is dropped " +
      "(accept all exact, reject all keeps the incoming atoms)",
    () => {
      const w = docOf(para(text("a")), image, para(text("b")));
      const i = docOf(para(text("a")), para(text("b")), { type: "horizontalRule" });
      const result = tracked(w, i);
      expect(result).toEqual(norm(i));
      expect(rejectAll(result)).toEqual(norm(i));
    },
  );

  test("code block text takes no marks (its schema allows none): a changed code block shows the incoming code untracked", () => {
    const w = docOf(para(text("x")), code("select 1"));
    const i = docOf(para(text("x")), code("select 2", "postgresql"));
    const result = tracked(w, i);
    expect(result).toEqual(norm(i));
    // A removed code block goes with nothing to show; inside a removed block it is kept and goes with it.
    expect(tracked(w, docOf(para(text("x"))))).toEqual(norm(docOf(para(text("x")))));
    const quote = { type: "blockquote", content: [para(text("said")), code("select 3")] };
    const removed = tracked(docOf(para(text("x")), quote), docOf(para(text("x"))));
    expect(rejectAll(removed)).toEqual(norm(docOf(para(text("x")), quote)));
  });

  test("attribute-only changes (a heading level, a ticked task, a list's start) follow the incoming version, untracked", () => {
    const task = (checked: boolean) => ({
      type: "taskList",
      content: [{ type: "taskItem", attrs: { checked }, content: [para(text("ship it"))] }],
    });
    const w = docOf(heading(2, "Plan"), task(false), {
      type: "orderedList",
      attrs: { start: 1 },
      content: [{ type: "listItem", content: [para(text("one"))] }],
    });
    const i = docOf(heading(3, "Plan"), task(true), {
      type: "orderedList",
      attrs: { start: 5 },
      content: [{ type: "listItem", content: [para(text("one"))] }],
    });
    const result = tracked(w, i);
    expect(result).toEqual(norm(i));
  });

  test("an empty paragraph added is simply there, one removed is dropped; text cleared from a lone paragraph is tracked", () => {
    const added = tracked(docOf(para(text("a")), para(text("b"))), docOf(para(text("a")), para(), para(text("b"))));
    expect(added).toEqual(norm(docOf(para(text("a")), para(), para(text("b")))));
    const removed = tracked(docOf(para(text("a")), para(), para(text("b"))), docOf(para(text("a")), para(text("b"))));
    expect(removed).toEqual(norm(docOf(para(text("a")), para(text("b")))));
    const cleared = tracked(docOf(para(text("all of it"))), docOf(para()));
    expect(listChanges(cleared).map((c) => [c.kind, c.text])).toEqual([["deletion", "all of it"]]);
    expect(rejectAll(cleared)).toEqual(norm(docOf(para(text("all of it")))));
  });
});

describe("tables", () => {
  test("text edited in a cell, and a cell emptied, are tracked in place; the row keeps its cells", () => {
    const w = docOf(table(["name", "size"], ["alpha", "10"], ["beta", "20"]));
    const i = docOf(table(["name", "size"], ["alpha", "12"], ["beta", ""]));
    const result = tracked(w, i);
    expect(rejectAll(result)).toEqual(norm(w));
    expect(listChanges(result).map((c) => [c.kind, c.text])).toEqual([
      ["deletion", "10"],
      ["insertion", "12"],
      ["deletion", "20"],
    ]);
  });

  test("rows added and removed in a plain table are whole-row changes", () => {
    const w = docOf(table(["name", "size"], ["alpha", "10"], ["beta", "20"]));
    const i = docOf(table(["name", "size"], ["beta", "20"], ["gamma", "30"]));
    const result = tracked(w, i);
    expect(rejectAll(result)).toEqual(norm(w));
    expect(listChanges(result).map((c) => [c.kind, c.text])).toEqual([
      ["deletion", "alpha\n10"],
      ["insertion", "gamma\n30"],
    ]);
  });

  test("a table whose columns changed is shown as the old table removed and the new one added", () => {
    const w = docOf(table(["name", "size"], ["alpha", "10"]));
    const i = docOf(table(["name", "size", "owner"], ["alpha", "10", "ann"]));
    const result = tracked(w, i);
    expect(rejectAll(result)).toEqual(norm(w));
    expect(result.content!.map((b) => b.type)).toEqual(["table", "table"]);
  });
});

describe("a working copy with changes still pending review", () => {
  const w0 = line("The quick brown fox jumps.");
  const w1 = line("The slow brown fox jumps high.");
  const pending = trackChanges(w0, w1, meta("ext-1"));

  test("keeps them, with their ids, beside the new ones; accept all gives the incoming, reject all the page before both", () => {
    const i = inline(text("The slow brown dog jumps high."));
    const result = tracked(pending, i, "ext-2");
    expect(rejectAll(result)).toEqual(norm(w0));
    expect(listChanges(result).map((c) => [c.id, c.kind, c.text])).toEqual([
      ["ext-1.1", "deletion", "quick"],
      ["ext-1.1", "insertion", "slow"],
      ["ext-2.1", "deletion", "fox"],
      ["ext-2.1", "insertion", "dog"],
      ["ext-1.2", "insertion", " high"],
    ]);
  });

  test(
    "text an earlier change inserted and the new version drops simply goes; text it " +
      "deleted and the new version restores comes back as an insertion",
    () => {
      const i = inline(text("The quick brown fox jumps."));
      const result = tracked(pending, i, "ext-2");
      expect(rejectAll(result)).toEqual(norm(w0));
      expect(listChanges(result).map((c) => [c.id, c.kind, c.text])).toEqual([
        ["ext-1.1", "deletion", "quick"],
        ["ext-2.1", "insertion", "quick"],
      ]);
    },
  );

  test("tracked marks in the incoming version are not its author's changes: it counts as accepted", () => {
    const i = trackChanges(line("one two"), line("one three"), meta("other"));
    const result = trackChanges(line("one two"), i, meta("ext-2"));
    expect(acceptAll(result)).toEqual(acceptAll(i));
    expect(result).toEqual(trackChanges(line("one two"), acceptAll(i), meta("ext-2")));
  });

  test.each([1, 2, 3, 4, 5, 6])(
    "property, seed %i: over random edits of random edits, accept all gives the newest version and reject all the first",
    (seed) => {
      for (let round = 0; round < 5; round++) {
        const first: JSONContent = seed % 3 ? sampleDocument(seed * 10 + round, 200) : acceptAll(everythingDocument() as JSONContent);
        const pendingCopy = trackChanges(first, randomEdits(first, seed * 7 + round, 1 + round), meta("ext-1"));
        const newest = randomEdits(acceptAll(pendingCopy), seed * 13 + round, 1 + ((seed + round) % 5));
        const result = tracked(pendingCopy, newest);
        expect(rejectAll(result)).toEqual(norm(first));
      }
    },
  );

  test.each([1, 2, 3, 4])(
    "property, seed %i: with code, atoms, attributes and emptied paragraphs edited too, accept all stays exact and every result opens",
    (seed) => {
      for (let round = 0; round < 8; round++) {
        const first: JSONContent = seed % 2 ? sampleDocument(seed * 10 + round, 200) : acceptAll(everythingDocument() as JSONContent);
        const pendingCopy = tracked(first, randomEdits(first, seed * 7 + round, 1 + round, { untracked: true }));
        tracked(pendingCopy, randomEdits(acceptAll(pendingCopy), seed * 13 + round, 1 + round, { untracked: true }));
      }
    },
  );
});
