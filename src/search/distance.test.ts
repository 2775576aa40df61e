import { describe, expect, test } from "bun:test";
import { editDistance, wordsNear } from "./distance";
import { oneEditFrom } from "./fuzzy";

describe("editDistance (Damerau-Levenshtein)", () => {
  test.each([
    ["billing", "billing", 0],
    ["biling", "billing", 1],
    ["invoces", "invoices", 1],
    ["teh", "the", 1],
    ["postgress", "postgres", 1],
    ["acomodation", "accommodation", 2],
    ["", "abc", 3],
    ["kitten", "sitting", 3],
  ])("%j → %j is %d", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe("wordsNear", () => {
  /** A vocabulary dense with neighbours: short words over five letters. */
  function words(seed: number, count: number): string[] {
    let s = seed;
    const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const out = new Set<string>();
    while (out.size < count) out.add(Array.from({ length: 2 + Math.floor(next() * 6) }, () => "abcde"[Math.floor(next() * 5)]).join(""));
    return [...out].sort();
  }

  test("finds exactly the words a full comparison finds, with their distances", () => {
    const vocabulary = words(1, 3000);
    for (const [query, max] of [
      ["abcab", 1],
      ["ddeab", 1],
      ["abcdeab", 2],
      ["eeeeeee", 2],
      ["ab", 1],
    ] as const) {
      const expected = new Map(vocabulary.map((w) => [w, editDistance(w, query)] as const).filter(([, d]) => d <= max));
      expect(wordsNear(vocabulary, query, max, (j) => j === query.length)).toEqual(expected);
    }
  });

  test("may leave off an ending the caller accepts", () => {
    const vocabulary = ["accommod", "accord", "postgr"];
    const endsAt = (q: string) => (j: number) => j === q.length || q.slice(j) === "ation" || q.slice(j) === "es";
    expect(wordsNear(vocabulary, "acomodation", 2, endsAt("acomodation"))).toEqual(new Map([["accommod", 2]]));
    expect(wordsNear(vocabulary, "postgrses", 2, endsAt("postgrses"))).toEqual(new Map([["postgr", 1]]));
  });
});

describe("oneEditFrom", () => {
  test("every deletion, swap, substitution and insertion, each once, the word left out", () => {
    const variants = oneEditFrom("ab", ["a", "b"]);
    expect(variants.sort()).toEqual(["a", "aa", "aab", "aba", "abb", "b", "ba", "bab", "bb"].sort());
    expect(variants.every((v) => editDistance(v, "ab") === 1)).toBe(true);
  });
});
