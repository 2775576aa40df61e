import { describe, expect, test } from "bun:test";
import type { DocJson } from "../../api/client";
import { compareVersions, markRanges } from "./doc-diff";

const t = (text: string): DocJson => ({ type: "text", text });
const p = (text: string): DocJson => ({ type: "paragraph", content: [t(text)] });
const doc = (...content: DocJson[]): DocJson => ({ type: "doc", content });
const cell = (type: string, text: string): DocJson => ({ type, content: [p(text)] });
const table = (...rows: string[][]): DocJson => ({
  type: "table",
  content: rows.map((r, i) => ({ type: "tableRow", content: r.map((x) => cell(i ? "tableCell" : "tableHeader", x)) })),
});
const list = (...items: string[]): DocJson => ({ type: "bulletList", content: items.map((x) => ({ type: "listItem", content: [p(x)] })) });
const code = (text: string): DocJson => ({ type: "codeBlock", attrs: { language: "bash" }, content: [t(text)] });

/** The texts in `node` carrying `mark`, in order. */
function marked(node: DocJson, mark: string, into: string[] = []): string[] {
  if (node.type === "text" && node.marks?.some((m) => m.type === mark)) into.push(node.text!);
  for (const c of node.content ?? []) marked(c, mark, into);
  return into;
}
const diffOf = (node: DocJson) => node.attrs?.diff;
const textOf = (node: DocJson): string => (node.type === "text" ? node.text! : (node.content ?? []).map(textOf).join(""));

describe("comparing two versions block by block", () => {
  const older = doc(
    p("Deploy on Friday afternoon."),
    table(["Service", "Owner"], ["Search", "Ada"], ["Backups", "Grace"]),
    list("check the changelog", "tag the build", "tell the team"),
    code("set -e\nbun run build\nexit 0"),
    p("Unchanged closing words."),
  );
  const newer = doc(
    p("Deploy on Monday morning."),
    table(["Service", "Owner"], ["Search", "Ada"], ["Backups", "Linus"]),
    list("check the changelog", "tag the release build", "tell the team"),
    code("set -e\nbun run build --minify\nexit 0"),
    p("Unchanged closing words."),
  );
  const { doc: out, changed } = compareVersions(older, newer);
  const blocks = out.content!;

  test("a changed paragraph: before then after, never the two versions' words in one line", () => {
    expect(blocks.slice(0, 2).map((b) => [b.type, diffOf(b), textOf(b)])).toEqual([
      ["paragraph", "before", "Deploy on Friday afternoon."],
      ["paragraph", "after", "Deploy on Monday morning."],
    ]);
    expect(marked(blocks[0], "deletion")).toEqual(["Friday afternoon"]);
    expect(marked(blocks[0], "insertion")).toEqual([]);
    expect(marked(blocks[1], "insertion")).toEqual(["Monday morning"]);
    expect(marked(blocks[1], "deletion")).toEqual([]);
  });

  test("a changed table cell: one table, the cell holding the old and the new text", () => {
    const tbl = blocks[2];
    expect(tbl.type).toBe("table");
    expect(diffOf(tbl)).toBeUndefined();
    expect(tbl.content!.length).toBe(3);
    const [, search, backups] = tbl.content!;
    expect(marked(search, "deletion").concat(marked(search, "insertion"))).toEqual([]);
    expect(backups.content!.map((c) => c.type)).toEqual(["tableCell", "tableCell"]);
    const owner = backups.content![1];
    expect(owner.content!.map((x) => [diffOf(x), textOf(x)])).toEqual([
      ["before", "Grace"],
      ["after", "Linus"],
    ]);
    expect(marked(owner, "deletion")).toEqual(["Grace"]);
    expect(marked(owner, "insertion")).toEqual(["Linus"]);
  });

  test("a changed list item: one list, the other items as they were", () => {
    const lst = blocks[3];
    expect(lst.type).toBe("bulletList");
    expect(lst.content!.length).toBe(3);
    expect(lst.content!.map((item) => item.content!.map((x) => diffOf(x) ?? "same"))).toEqual([["same"], ["before", "after"], ["same"]]);
    expect(marked(lst.content![1], "insertion")).toEqual(["release "]);
  });

  test("changed code: a code block of lines kept, removed and added", () => {
    const c = blocks[4];
    expect(c.type).toBe("codeBlock");
    expect(c.attrs?.language).toBe("bash");
    expect(c.content!.map((line) => [line.attrs?.diff ?? "same", textOf(line)])).toEqual([
      ["same", "set -e"],
      ["removed", "bun run build"],
      ["added", "bun run build --minify"],
      ["same", "exit 0"],
    ]);
  });

  test("unchanged blocks are the newer version's own; the count says something changed", () => {
    expect(blocks[5]).toBe(newer.content![4]);
    expect(blocks.length).toBe(6);
    expect(changed).toBeGreaterThan(0);
    expect(compareVersions(older, older).changed).toBe(0);
  });

  test("whole blocks added and removed are marked as such; a block that changed kind is both", () => {
    const { doc: d } = compareVersions(
      doc(p("One"), p("Two"), p("Three")),
      doc(p("One"), p("Three"), { type: "heading", attrs: { level: 2 }, content: [t("Four")] }),
    );
    expect(d.content!.map((b) => [b.type, diffOf(b) ?? "same", textOf(b)])).toEqual([
      ["paragraph", "same", "One"],
      ["paragraph", "removed", "Two"],
      ["paragraph", "same", "Three"],
      ["heading", "added", "Four"],
    ]);
    expect(marked(d.content![1], "deletion")).toEqual(["Two"]);
    expect(marked(d.content![3], "insertion")).toEqual(["Four"]);
  });

  test("in a rewritten run, blocks are paired with the ones they resemble, not by position", () => {
    const { doc: d } = compareVersions(
      doc(p("alpha beta gamma"), p("delta epsilon zeta")),
      doc(p("a new paragraph entirely"), p("alpha beta gamma!"), p("delta epsilon zeta!")),
    );
    expect(d.content!.map((b) => diffOf(b))).toEqual(["added", "before", "after", "before", "after"]);
  });

  test("marks ranges across text pieces, keeping their own marks", () => {
    const content = [t("Hello "), { type: "text", text: "bold world", marks: [{ type: "bold" }] }];
    expect(markRanges(content, [[4, 10]], "deletion")).toEqual([
      t("Hell"),
      { type: "text", text: "o ", marks: [{ type: "deletion" }] },
      { type: "text", text: "bold", marks: [{ type: "bold" }, { type: "deletion" }] },
      { type: "text", text: " world", marks: [{ type: "bold" }] },
    ]);
  });
});
