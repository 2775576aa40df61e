import { describe, expect, test } from "bun:test";
import { findControl, multiLine, normaliseNewlines, singleLine } from "./text";

// [what, text, found in a single-line field, found in a multi-line field]
const CASES: Array<[string, string, string | null, string | null]> = [
  ["plain text", "Release notes 2.0", null, null],
  ["accents, CJK, emoji (a surrogate pair)", "Café 管理 😀 👩🏽‍💻", null, null],
  ["right-to-left text with its marks (LRM, RLM, ALM)", "שלום \u200E\u200F\u061C abc", null, null],
  ["zero-width joiner and no-break space", "a\u200Db\u00A0c", null, null],
  ["NUL", "a\u0000b", "U+0000", "U+0000"],
  ["a bell", "bell\u0007", "U+0007", "U+0007"],
  ["a tab", "a\tb", "U+0009", null],
  ["a line feed", "a\nb", "U+000A", null],
  ["a trailing line feed", "title\n", "U+000A", null],
  ["a vertical tab", "a\u000Bb", "U+000B", "U+000B"],
  ["a form feed", "a\u000Cb", "U+000C", "U+000C"],
  ["ESC (a terminal escape)", "\u001B[31mred", "U+001B", "U+001B"],
  ["the unit separator", "a\u001Fb", "U+001F", "U+001F"],
  ["DEL", "a\u007Fb", "U+007F", "U+007F"],
  ["C1: NEL", "a\u0085b", "U+0085", "U+0085"],
  ["C1: CSI", "a\u009Bb", "U+009B", "U+009B"],
  ["C1: the first (U+0080)", "a\u0080b", "U+0080", "U+0080"],
  ["LRE (an embedding)", "a\u202Ab", "U+202A", "U+202A"],
  ["RLO (an override)", "invoice\u202Efdp.exe", "U+202E", "U+202E"],
  ["LRI (an isolate)", "a\u2066b", "U+2066", "U+2066"],
  ["PDI (the isolates' end)", "a\u2069b", "U+2069", "U+2069"],
  ["a lone high surrogate", "a\uD800b", "U+D800", "U+D800"],
  ["a lone low surrogate at the start", "\uDE00x", "U+DE00", "U+DE00"],
  ["a high surrogate at the end", "x\uD83D", "U+D83D", "U+D83D"],
];

describe("findControl", () => {
  test.each(CASES)("%s", (_what, text, single, multi) => {
    expect(findControl(text, "single-line")).toBe(single);
    expect(findControl(text, "multi-line")).toBe(multi);
  });
});

describe("singleLine and multiLine", () => {
  test("answer the text (multi-line: newlines normalised) or throw a 400 naming the field", () => {
    expect(singleLine("title", "  Spaces stay  ")).toBe("  Spaces stay  ");
    expect(() => singleLine("title", "a\tb")).toThrow(expect.objectContaining({ status: 400, extras: expect.objectContaining({ field: "title" }) }));
    expect(() => singleLine("name", "a\u202Eb")).toThrow("The name must not contain control characters (found U+202E).");
    expect(multiLine("description", "one\r\ntwo\rthree\n\tfour")).toBe("one\ntwo\nthree\n\tfour");
    expect(() => multiLine("body", "bell\u0007")).toThrow("The request body must not contain control characters other than tab and line feed (found U+0007).");
  });

  test("a carriage return is a line break in multi-line fields, a control in single-line ones", () => {
    expect(normaliseNewlines("a\r\nb\rc")).toBe("a\nb\nc");
    expect(() => singleLine("title", "a\rb")).toThrow("(found U+000D)");
  });
});
