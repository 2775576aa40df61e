import { describe, expect, test } from "bun:test";
import type { DocJson } from "../../api/client";
import { compareDocs } from "./text-diff";

const p = (text: string): DocJson => ({ type: "paragraph", content: [{ type: "text", text }] });
const doc = (...content: DocJson[]): DocJson => ({ type: "doc", content });

describe("comparing two versions", () => {
  test("marks the words that went in and out of a block changed in place", () => {
    const [change] = compareDocs(doc(p("Deploy on Friday")), doc(p("Deploy on Monday")));
    expect(change.kind).toBe("changed");
    expect(change.pieces.filter((x) => x.kind === "removed").map((x) => x.text)).toEqual(["Friday"]);
    expect(change.pieces.filter((x) => x.kind === "added").map((x) => x.text)).toEqual(["Monday"]);
  });

  test("keeps unchanged blocks and marks whole blocks added or removed", () => {
    const out = compareDocs(doc(p("One"), p("Two"), p("Three")), doc(p("One"), p("Three"), p("Four")));
    expect(out.map((c) => [c.kind, c.pieces.map((x) => x.text).join("")])).toEqual([
      ["same", "One"],
      ["removed", "Two"],
      ["same", "Three"],
      ["added", "Four"],
    ]);
  });
});
