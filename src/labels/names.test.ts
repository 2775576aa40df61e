import { describe, expect, test } from "bun:test";
import { AppError } from "../platform/errors";
import { foldLabelName, LABEL_NAME_MAX, normaliseLabelName } from "./names";

/** The refused field and status, or what was stored. */
const refusal = (name: string) => {
  try {
    return normaliseLabelName(name);
  } catch (e) {
    return e instanceof AppError ? `${e.status} on ${e.extras.field}` : e;
  }
};

describe("normaliseLabelName", () => {
  test.each([
    ["ASCII, as before", "How-To.v2", "how-to.v2"],
    ["digits first", "2024", "2024"],
    ["Chinese", "数据库", "数据库"],
    ["Japanese with a prolonged sound mark", "データ", "データ"],
    ["Greek, upper case: the last sigma is final", "ΟΔΟΣ", "οδος"],
    ["Greek, title case", "Οδος", "οδος"],
    ["Greek, typed with a medial sigma at the end", "οδοσ", "οδος"],
    ["Greek, a sigma inside a word stays medial", "ΣΟΦΙΑ", "σοφια"],
    ["Greek, a sigma before '-' ends its word", "ΟΔΟΣ-ΣΟΦΙΑ", "οδος-σοφια"],
    ["German ß stays ß", "Straße", "straße"],
    ["German capital ẞ is ß", "STRAẞE", "straße"],
    ["German SS is ss, another label than ß", "STRASSE", "strasse"],
    ["Turkish dotted İ is i, with no combining dot", "İstanbul", "istanbul"],
    ["Turkish dotless ı stays ı", "ılık", "ılık"],
    ["I without a locale is i", "ISTANBUL", "istanbul"],
    ["Cyrillic", "Документы", "документы"],
    ["Arabic", "قاعدة", "قاعدة"],
    ["Hindi, with its vowel signs and virama (marks)", "हिन्दी", "हिन्दी"],
    ["an accent, composed", "Café", "café"],
    ["an accent, decomposed (NFKC composes it)", "Cafe\u0301", "café"],
    ["fullwidth letters and dash (NFKC)", "ＡＢＣ－１", "abc-1"],
    ["the Kelvin sign is K (NFKC)", "\u212A", "k"],
    ["a ligature (NFKC)", "ﬁle", "file"],
    ["a Roman numeral (NFKC)", "Ⅻ", "xii"],
    ["a CJK ideograph outside the BMP", "𠀀", "𠀀"],
  ])("accepts %s: %s → %s", (_why, name, stored) => {
    expect(normaliseLabelName(name)).toBe(stored);
    // What is stored must name itself again, as it does in a URL.
    expect(normaliseLabelName(stored)).toBe(stored);
  });

  test.each([
    ["an empty name", ""],
    ["a space", "two words"],
    ["a leading space (nothing is trimmed)", " ops"],
    ["a no-break space (NFKC makes it a space)", "a\u00A0b"],
    ["an ideographic space", "数据\u3000库"],
    ["a tab", "a\tb"],
    ["a NUL", "a\u0000b"],
    ["an escape", "a\u001Bb"],
    ["a C1 control", "a\u009Bb"],
    ["a zero-width space", "a\u200Bb"],
    ["a zero-width joiner", "a\u200Db"],
    ["a soft hyphen", "a\u00ADb"],
    ["a right-to-left override", "\u202Eabc"],
    ["a left-to-right mark", "abc\u200E"],
    ["a Hangul filler (an invisible letter)", "\u3164"],
    ["a variation selector after a letter", "a\uFE0F"],
    ["a leading combining mark", "\u0301a"],
    ["a leading dot", ".hidden"],
    ["a leading dash", "-x"],
    ["a leading underscore", "_x"],
    ["a slash", "a/b"],
    ["a hash", "a#b"],
    ["a symbol", "a©"],
    ["a fraction (NFKC gives a fraction slash)", "½"],
    ["a private-use character", "\uE000"],
    ["a lone surrogate", "a\uD800"],
    ["an emoji", "🚀"],
    ["a letter then an emoji", "go🚀"],
    ["an emoji with a variation selector", "❤️"],
    ["a keycap emoji (digit, selector, enclosing mark)", "1️⃣"],
    ["an emoji with a skin tone", "👍🏽"],
    ["a flag", "🇩🇪"],
    [`${LABEL_NAME_MAX + 1} letters`, "a".repeat(LABEL_NAME_MAX + 1)],
    [`${LABEL_NAME_MAX + 1} ideographs`, "数".repeat(LABEL_NAME_MAX + 1)],
    [`${LABEL_NAME_MAX + 1} ideographs outside the BMP`, "𠀀".repeat(LABEL_NAME_MAX + 1)],
    ["a ligature that NFKC makes too long", "ﬁ".repeat(26)],
  ])("refuses %s (400 on name)", (_why, name) => {
    expect(refusal(name)).toBe("400 on name");
  });

  test(`${LABEL_NAME_MAX} characters are fine in any script, counted in code points`, () => {
    for (const ch of ["a", "数", "𠀀", "ß"]) expect(normaliseLabelName(ch.repeat(LABEL_NAME_MAX))).toBe(ch.repeat(LABEL_NAME_MAX));
  });

  test("folding is idempotent for every code point, alone, before and after a sigma", () => {
    const unstable: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const once = foldLabelName(`${c}Σ${c}`);
      if (foldLabelName(once) !== once) unstable.push(`U+${cp.toString(16)}`);
    }
    expect(unstable).toEqual([]);
  });
});
