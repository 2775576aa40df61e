import { describe, expect, test } from "bun:test";
import { summary } from "./RestrictionsSection";
import type { Restriction } from "./queries";

const r = (name: string, op: 0 | 1, group = false, inherited = false): Restriction => ({
  id: name + op,
  pageId: "p",
  inherited,
  operation: op,
  principalType: group ? 1 : 0,
  principalId: name,
  principalName: name,
  createdAt: "2026-01-01T00:00:00Z",
});

describe("restrictions in plain words", () => {
  test("none: the space decides", () => {
    expect(summary([], 0, "Engineering")).toBe("Everyone who can see the space Engineering can see this page.");
    expect(summary([], 1, "Engineering")).toBe("Everyone who can edit in Engineering can edit this page.");
  });
  test("people and groups named, joined as a sentence", () => {
    expect(summary([r("Ana", 0), r("Editors", 0, true), r("Bo", 1)], 0, "E")).toBe(
      "Only Ana and the Editors group can see this page. Space administrators always can.",
    );
    expect(summary([r("Ana", 0), r("Bo", 0), r("Cy", 0)], 0, "E")).toBe(
      "Only Ana, Bo and Cy can see this page. Space administrators always can.",
    );
  });
  test("inherited from a parent page is said apart", () => {
    expect(summary([r("Ana", 1, false, true)], 1, "E")).toBe(
      "A parent page limits it: only Ana can edit it. Space administrators always can.",
    );
  });
});
