import { expect, test } from "bun:test";
import { blockItems, filterBlocks } from "./blocks";

test("the '/' menu offers Image only where files can be uploaded", () => {
  expect(blockItems(() => {}).map((i) => i.id)).toContain("image");
  expect(blockItems().map((i) => i.id)).not.toContain("image");
  expect(filterBlocks(blockItems(), "imag")).toEqual([]);
  expect(filterBlocks(blockItems(), "task").map((i) => i.title)).toEqual(["Task list"]);
});
