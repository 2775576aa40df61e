/**
 * The editor's review commands, on a real TipTap editor with the shared extensions. It is not
 * mounted (no DOM here); the commands act on its state as they do in the browser.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { Editor, type JSONContent } from "@tiptap/core";
import { history, redo, undo } from "@tiptap/pm/history";
import { type Command, EditorState } from "@tiptap/pm/state";
import { reviewCommand } from "./nodes/tracked-change";
import { contentSchema } from "./schema";
import { sampleDocument } from "./sample";
import { contentExtensions } from "./extensions";
import { acceptAll, acceptChange, listChanges, rejectAll, rejectChange, trackChanges } from "./tracked-changes";
import { randomEdits } from "./tracked-testing";

const meta = { id: "ext-7", authorId: "u-1", createdAt: "2026-11-24T10:00:00Z" };
const working = sampleDocument(11, 300);
const incoming = randomEdits(working, 99, 8);
const reviewed = trackChanges(working, incoming, meta);
const ids = [...new Set(listChanges(reviewed).map((c) => c.id))];

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

function open(content: JSONContent): Editor {
  editor = new Editor({ element: null, extensions: contentExtensions, content, enableContentCheck: true });
  return editor;
}

describe("the review commands of the editor", () => {
  test("the test document has several changes to review", () => {
    expect(ids.length).toBeGreaterThan(3);
  });

  test("acceptAllChanges and rejectAllChanges give the incoming and the working page", () => {
    const a = open(reviewed);
    expect(a.commands.acceptAllChanges()).toBe(true);
    expect<JSONContent>(a.getJSON()).toEqual(acceptAll(incoming));
    const b = open(reviewed);
    expect(b.commands.rejectAllChanges()).toBe(true);
    expect<JSONContent>(b.getJSON()).toEqual(rejectAll(working));
  });

  test("acceptChange and rejectChange act on one change, as the JSON functions do", () => {
    for (const id of ids) {
      expect(open(reviewed).commands.acceptChange(id)).toBe(true);
      expect<JSONContent>(editor!.getJSON()).toEqual(acceptChange(reviewed, id));
      expect(open(reviewed).commands.rejectChange(id)).toBe(true);
      expect<JSONContent>(editor!.getJSON()).toEqual(rejectChange(reviewed, id));
    }
  });

  test("reviewing change by change, accepting some and rejecting others, leaves no marks and a valid page", () => {
    const e = open(reviewed);
    ids.forEach((id, n) => expect(n % 2 ? e.commands.rejectChange(id) : e.commands.acceptChange(id)).toBe(true));
    expect(listChanges(e.getJSON())).toEqual([]);
    let expected = reviewed;
    ids.forEach((id, n) => (expected = n % 2 ? rejectChange(expected, id) : acceptChange(expected, id)));
    expect<JSONContent>(e.getJSON()).toEqual(expected);
  });

  test("a command with nothing to act on answers false and changes nothing; can() asks without acting", () => {
    const e = open(reviewed);
    expect(e.can().acceptChange("no-such-change")).toBe(false);
    expect(e.can().acceptChange(ids[0])).toBe(true);
    expect<JSONContent>(e.getJSON()).toEqual(reviewed);
    expect(e.commands.rejectChange("no-such-change")).toBe(false);
    e.commands.acceptAllChanges();
    expect(e.can().rejectAllChanges()).toBe(false);
    expect(e.commands.acceptAllChanges()).toBe(false);
  });

  test("commands chain into one transaction", () => {
    const e = open(reviewed);
    expect(e.chain().acceptChange(ids[0]).rejectChange(ids[1]).run()).toBe(true);
    expect<JSONContent>(e.getJSON()).toEqual(rejectChange(acceptChange(reviewed, ids[0]), ids[1]));
  });
});

/**
 * Undo, with ProseMirror's history on a plain editor state: an unmounted TipTap editor runs no
 * plugins. The commands above and reviewCommand share one implementation.
 */
describe("undoing a review", () => {
  let state: EditorState;
  const run = (command: Command) => command(state, (tr) => (state = state.apply(tr)));
  const json = () => state.doc.toJSON();

  test("each review is one undo step, even right after another, and undo restores the changes", () => {
    state = EditorState.create({ doc: contentSchema.nodeFromJSON(reviewed), plugins: [history()] });
    expect(run(reviewCommand("accept", new Set([ids[0]])))).toBe(true);
    expect(run(reviewCommand("reject", new Set([ids[1]])))).toBe(true);
    expect(json()).toEqual(rejectChange(acceptChange(reviewed, ids[0]), ids[1]));
    run(undo);
    expect(json()).toEqual(acceptChange(reviewed, ids[0]));
    run(undo);
    expect(json()).toEqual(reviewed);
    expect(run(reviewCommand("accept"))).toBe(true);
    expect(json()).toEqual(acceptAll(incoming));
    run(undo);
    expect(json()).toEqual(reviewed);
    run(redo);
    expect(json()).toEqual(acceptAll(incoming));
    expect(run(reviewCommand("reject"))).toBe(false);
  });
});
