import { describe, expect, test } from "bun:test";
import { sampleDocument } from "./sample";
import { checkContentJson } from "./validate";

const words = (seed: number, n?: number) =>
  checkContentJson(JSON.stringify(sampleDocument(seed, n)))
    .text.split(/\s+/)
    .filter(Boolean);

describe("sampleDocument", () => {
  test("is the same for the same seed and differs between seeds", () => {
    expect(sampleDocument(42)).toEqual(sampleDocument(42));
    expect(sampleDocument(42)).not.toEqual(sampleDocument(43));
  });

  test.each([1, 10, 500, 5000])("is a valid page with headings, paragraphs, a list and code (%i words)", (n) => {
    const doc = sampleDocument(n, n);
    expect(() => checkContentJson(JSON.stringify(doc))).not.toThrow();
    const types = doc.content.map((node) => node.type);
    for (const type of ["heading", "paragraph", "bulletList", "codeBlock"]) expect(types).toContain(type);
  });

  test("has about the asked number of words", () => {
    for (const n of [500, 5000]) {
      expect(words(7, n).length).toBeGreaterThanOrEqual(n);
      expect(words(7, n).length).toBeLessThan(n * 1.3);
    }
  });

  test("draws on a varied vocabulary, CJK included", () => {
    const all = Array.from({ length: 20 }, (_, seed) => words(seed)).flat();
    const distinct = new Set(all.map((w) => w.toLowerCase().replace(/[.,()]/g, "")));
    expect(distinct.size).toBeGreaterThan(1500);
    expect(all.some((w) => /[\u4e00-\u9fff]/.test(w))).toBe(true);
  });
});
