import { describe, expect, test } from "bun:test";
import { parseQuery } from "./query";
import { snippetFor } from "./snippet";

const filler = (n: number) => "filler ".repeat(n);
const family = "👩‍👩‍👧"; // one character to a reader, eight UTF-16 units joined by ZWJ
const yoshinoya = "𠮷野家"; // 𠮷 is outside the BMP: a surrogate pair
const long = "deploy" + "x".repeat(300);

/**
 * Name, page text, query, the snippet expected. Every snippet is also checked for what must
 * hold of any: markers in pairs, nothing cut inside a character, and (markers and "…" taken
 * out) a passage of the text as it is.
 */
const cases: Array<[string, string, string, string]> = [
  [
    "match at the very start of the text",
    `Deploy the thing ${"word ".repeat(60)}`,
    "deploy",
    `**Deploy** the thing ${"word ".repeat(27)}word…`,
  ],
  ["match at the very end of the text", `${"word ".repeat(50)}we deploy`, "deploy", `…${"word ".repeat(10)}word we **deploy**`],
  ["window starts at the match: no word boundary before it", `${"x".repeat(100)} deploy tail`, "deploy", "…**deploy** tail"],
  [
    "a match ending exactly at the window's end is kept",
    `deploy ${"ab ".repeat(47)}abc incident more words`,
    "deploy incident",
    `**deploy** ${"ab ".repeat(47)}abc **incident**…`,
  ],
  [
    "a match across the window's end is left out whole",
    `deploy ${"ab ".repeat(49)}x incidents more words`,
    "deploy incident",
    `**deploy** ${"ab ".repeat(49)}x…`,
  ],
  [
    "a phrase across the window's end is left out whole, not cut at its space",
    `alpha ${filler(20)}abcde disaster recovery plan`,
    '"disaster recovery" alpha',
    `**alpha** ${filler(20)}abcde…`,
  ],
  [
    "no word boundary after the match: cut at the next one",
    `see deploy/${"ab/".repeat(80)}`,
    "deploy",
    `see **deploy**/${"ab/".repeat(51)}…`,
  ],
  ["a match longer than the window is whole", `a b ${long} tail end`, "deploy", `a b **${long}**…`],
  ["the text's own asterisks never read as markers", "a ** b deploy **c and *d*", "deploy", "a ∗∗ b **deploy** ∗∗c and ∗d∗"],
  [
    "multi-byte: accents (folded in place) and emoji sequences are never split",
    `Ça va. ${family.repeat(20)}café est très CAFÉ ouvert`,
    "cafe",
    `…${family.repeat(7)}**café** est très **CAFÉ** ouvert`,
  ],
  [
    "CJK without spaces: cut between characters, never inside a surrogate pair",
    `${yoshinoya.repeat(40)}野管理${yoshinoya.repeat(80)}`,
    "管理",
    `…野家${yoshinoya.repeat(14)}野**管理**${yoshinoya.repeat(39)}𠮷…`,
  ],
  ["no match in the body: the start of the text, cut between words", "word ".repeat(60), "title-only", `${"word ".repeat(43)}word…`],
  ["CJK and diacritics as before", "系统管理员手册", "管理", "系统**管理**员手册"],
  ["Korean", "한국어 문서 관리", "관리", "한국어 문서 **관리**"],
  ["a short text whole", "Just a body.", "title-only", "Just a body."],
  [
    "whitespace runs and line breaks become one space; none left over means no ellipsis",
    "Intro.\n\n  We   deploy\tnow.\n  ",
    "deploy",
    "Intro. We **deploy** now.",
  ],
];

/** The snippet as text (markers and ellipses out, asterisks back), which must be in the text. */
const plain = (s: string) => s.replace(/\*\*/g, "").replace(/^…|…$/g, "").replace(/∗/g, "*");

describe("snippetFor", () => {
  test.each(cases)("%s", (_name, text, q, expected) => {
    const s = snippetFor(text, parseQuery(q).must);
    expect(s).toBe(expected);
    expect(s.split("**").length % 2).toBe(1);
    expect(s.isWellFormed()).toBe(true);
    expect(text.replace(/\s+/g, " ")).toContain(plain(s));
  });

  test("is the passage that matched, about 220 characters, with the matching words in **", () => {
    const text = "Intro words here. " + "filler ".repeat(40) + "We are deploying the new backup server tonight. " + "tail ".repeat(60);
    const s = snippetFor(text, parseQuery("deploy backup").must);
    expect(s).toContain("**deploying**");
    expect(s).toContain("**backup**");
    expect(s.startsWith("…")).toBe(true);
    expect(s.endsWith("…")).toBe(true);
    expect(s.length).toBeLessThan(260);
  });

  test("case and diacritics are matched alike whether or not the page has letters to fold", () => {
    expect(snippetFor("We DEPLOY on Fridays; deployments are small.", parseQuery("deploy").must)).toBe(
      "We **DEPLOY** on Fridays; **deployments** are small.",
    );
    expect(snippetFor("Le CAFÉ et le café", parseQuery("cafe").must)).toBe("Le **CAFÉ** et le **café**");
    expect(snippetFor("ΣΟΦΙΑ and σοφια", parseQuery("σοφια").must)).toBe("**ΣΟΦΙΑ** and **σοφια**");
    expect(snippetFor("Straße STRASSE", parseQuery("strasse").must)).toBe("Straße **STRASSE**");
  });

  test("words found by a near spelling are highlighted whole, wherever they are", () => {
    const text = "Send the invoices, not the invoice-like forms.";
    expect(snippetFor(text, parseQuery("invoces").must, ["invoices"])).toBe("Send the **invoices**, not the invoice-like forms.");
  });
});
