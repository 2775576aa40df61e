import { describe, expect, test } from "bun:test";
import { findControl, findInvisible, multiLine, normaliseNewlines, singleLine, tidySingleLine } from "./text";

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
    expect(() => singleLine("title", "a\tb")).toThrow(
      expect.objectContaining({ status: 400, extras: expect.objectContaining({ field: "title" }) }),
    );
    expect(() => singleLine("name", "a\u202Eb")).toThrow("The name must not contain control characters (found U+202E).");
    expect(multiLine("description", "one\r\ntwo\rthree\n\tfour")).toBe("one\ntwo\nthree\n\tfour");
    expect(() => multiLine("body", "bell\u0007")).toThrow(
      "The request body must not contain control characters other than tab and line feed (found U+0007).",
    );
  });

  test("a carriage return is a line break in multi-line fields, a control in single-line ones", () => {
    expect(normaliseNewlines("a\r\nb\rc")).toBe("a\nb\nc");
    expect(() => singleLine("title", "a\rb")).toThrow("(found U+000D)");
  });
});

// [what, text, the invisible character found (null: allowed)]
const INVISIBLE_CASES: Array<[string, string, string | null]> = [
  ["plain text", "Release notes", null],
  ["an emoji ZWJ sequence with a skin tone", "👩🏽\u200D💻", null],
  ["a family emoji (three joiners)", "👨\u200D👩\u200D👧", null],
  ["a red heart (variation selector)", "❤\uFE0F", null],
  ["Persian with a ZWNJ", "می\u200Cخواهم", null],
  ["Hindi with a ZWJ after a virama", "क्\u200Dष", null],
  ["Malayalam with a ZWNJ", "കാര്\u200Cത്തിക", null],
  ["LRM and RLM (bidi marks stay)", "a\u200Eb\u200F", null],
  ["a zero-width space", "a\u200Bb", "U+200B"],
  ["a ZWJ between Latin letters", "a\u200Db", "U+200D"],
  ["a ZWNJ between Latin letters", "a\u200Cb", "U+200C"],
  ["a ZWJ after an emoji, at the end", "👍\u200D", "U+200D"],
  ["a ZWJ at the start", "\u200Dx", "U+200D"],
  ["a word joiner", "a\u2060b", "U+2060"],
  ["an invisible times", "a\u2062b", "U+2062"],
  ["a byte-order mark", "\uFEFFa", "U+FEFF"],
  ["a Mongolian vowel separator", "a\u180Eb", "U+180E"],
  ["a soft hyphen", "a\u00ADb", "U+00AD"],
  ["a combining grapheme joiner", "a\u034Fb", "U+034F"],
  ["a Hangul filler", "\u3164", "U+3164"],
  ["a halfwidth Hangul filler", "\uFFA0", "U+FFA0"],
  ["a braille blank", "\u2800", "U+2800"],
  ["a language tag", "a\u{E0001}", "U+E0001"],
  ["the first of two: a ZWNJ before a ZWSP", "a\u200Cb\u200B", "U+200C"],
];

describe("findInvisible (single-line fields)", () => {
  test.each(INVISIBLE_CASES)("%s", (_what, text, found) => {
    expect(findInvisible(text)).toBe(found);
  });

  test("singleLine refuses them with a 400 naming the field; multi-line fields keep them", () => {
    expect(() => singleLine("title", "Road\u200Bmap")).toThrow(
      "The title must not contain invisible characters such as zero-width spaces or joiners (found U+200B).",
    );
    expect(multiLine("description", "Road\u200Bmap")).toBe("Road\u200Bmap");
  });
});

describe("tidySingleLine: a title or name from an archive made to pass singleLine", () => {
  test.each([
    ["Plain title", "Plain title"],
    ["Tab\tand\nnewline", "Tab and newline"],
    ["Zero\u200Bwidth\uFEFF", "Zerowidth"],
    ["\u202Egnp.exe", "gnp.exe"],
    ["Joined\u200Dlatin", "Joinedlatin"],
    ["👩\u200D💻 coder", "👩\u200D💻 coder"],
    ["می\u200Cخواهم", "می\u200Cخواهم"],
    ["\u200B\u2060", ""],
  ])("%j → %j", (from, to) => {
    const tidy = tidySingleLine(from, 200);
    expect(tidy).toBe(to);
    if (tidy) expect(singleLine("title", tidy)).toBe(tidy);
  });

  test("cut to the maximum in characters, never inside one", () => {
    expect(tidySingleLine("😀".repeat(10), 3)).toBe("😀😀😀");
    expect(tidySingleLine("a".repeat(10_000), 5)).toBe("aaaaa");
  });
});
