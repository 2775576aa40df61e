import { describe, expect, test } from "bun:test";
import type { TreeNode } from "../../api/types";
import { flatten, locate, moveInTree, removeFromTree } from "./model";

const n = (id: string, children: TreeNode[] = []): TreeNode => ({ id, title: id, emoji: null, position: 0, children });
// A (A1 (A1a), A2), B
const tree = () => [n("A", [n("A1", [n("A1a")]), n("A2")]), n("B")];
const shape = (nodes: TreeNode[]): unknown[] => nodes.map((x) => (x.children.length ? [x.id, shape(x.children)] : x.id));

describe("the sidebar's tree model", () => {
  test("flattens only open branches, with levels and positions among siblings", () => {
    const rows = flatten(tree(), new Set(["A"]));
    expect(rows.map((r) => [r.node.id, r.level, r.posInSet, r.setSize, r.expanded])).toEqual([
      ["A", 1, 1, 2, true],
      ["A1", 2, 1, 2, false],
      ["A2", 2, 2, 2, false],
      ["B", 1, 2, 2, false],
    ]);
    expect(flatten(tree(), new Set(["A1"])).map((r) => r.node.id)).toEqual(["A", "B"]);
  });

  test("moves a page with its subtree under another parent, at an index", () => {
    expect(shape(moveInTree(tree(), "A1", "B", 0))).toEqual([
      ["A", ["A2"]],
      ["B", [["A1", ["A1a"]]]],
    ]);
    expect(shape(moveInTree(tree(), "B", null, 0))).toEqual(["B", ["A", [["A1", ["A1a"]], "A2"]]]);
    expect(shape(moveInTree(tree(), "A2", "A", 0))).toEqual([["A", ["A2", ["A1", ["A1a"]]]], "B"]);
  });

  test("refuses to move a page under itself or its own subtree", () => {
    expect(shape(moveInTree(tree(), "A", "A1a", 0))).toEqual(shape(tree()));
    expect(shape(moveInTree(tree(), "A", "A", 0))).toEqual(shape(tree()));
  });

  test("finds a page's parent and removes a subtree", () => {
    expect(locate(tree(), "A1a")).toMatchObject({ parentId: "A1", index: 0 });
    expect(shape(removeFromTree(tree(), "A1"))).toEqual([["A", ["A2"]], "B"]);
  });
});
