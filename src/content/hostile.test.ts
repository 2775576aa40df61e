import { describe, expect, test } from "bun:test";
import { AppError } from "../platform/errors";
import { MAX_MARKS } from "./structure";
import { docOf, everythingDocument, inline, para, rejection, text } from "./testing";
import { checkContentJson, MAX_CONTENT_BYTES, MAX_DEPTH, MAX_NODES } from "./validate";
import { rng } from "../../tests/fuzz/random";

const nestedQuotes = (levels: number) => {
  let node: unknown = para(text("deep"));
  for (let i = 0; i < levels; i++) node = { type: "blockquote", content: [node] };
  return docOf(node);
};

describe("hostile input", () => {
  test.each<[string, unknown]>([
    ["undefined", undefined],
    ["a boolean", true],
    ["a bigint", 10n],
    ["a symbol", Symbol("x")],
    ["a function", () => "{}"],
    ["an array", ['{"type":"doc"}']],
    ["an object", { type: "doc", content: [] }],
    ["an empty string", ""],
    ["JSON null", "null"],
    ["JSON number", "1e400"],
    ["JSON true", "true"],
    ["truncated JSON", '{"type":"doc","content":[{"type":"paragraph"'],
    ["a lone surrogate", '"\\ud800"'],
  ])("%s is a 400", (_, input) => {
    expect(rejection(input)).toBeString();
  });

  test("10,000 levels of nesting stop at the depth limit with a path", () => {
    const reason = rejection(JSON.stringify(nestedQuotes(10_000)));
    expect(reason).toStartWith("content[0]" + ".content[0]".repeat(MAX_DEPTH));
    expect(reason).toEndWith(`the document is nested too deeply (at most ${MAX_DEPTH} levels)`);
    expect(rejection("[".repeat(10_000) + "]".repeat(10_000))).toContain('"type": "doc"');
    const deepAttr = `{"type":"doc","content":[{"type":"tableCell","attrs":{"colwidth":${"[".repeat(10_000)}${"]".repeat(10_000)}}}]}`;
    expect(rejection(deepAttr)).toBeString();
  });

  test("the depth limit itself is allowed", () => {
    // Quotes, then the paragraph, then its text: the text sits exactly at MAX_DEPTH.
    expect(() => checkContentJson(JSON.stringify(nestedQuotes(MAX_DEPTH - 2)))).not.toThrow();
    expect(rejection(JSON.stringify(nestedQuotes(MAX_DEPTH - 1)))).toContain("nested too deeply");
  });

  test("size is counted in UTF-8 bytes", () => {
    const json = (t: string) => JSON.stringify(inline(text(t)));
    const overhead = json("").length;
    expect(() => checkContentJson(json("x".repeat(MAX_CONTENT_BYTES - overhead)))).not.toThrow();
    expect(rejection(json("x".repeat(MAX_CONTENT_BYTES - overhead + 1)))).toContain(
      `too large (${MAX_CONTENT_BYTES + 1} bytes; at most ${MAX_CONTENT_BYTES})`,
    );
    // 管 is three bytes: 800,000 characters are 2.4 MB.
    expect(rejection(json("管".repeat(800_000)))).toContain("too large");
    expect(rejection("x".repeat(50_000_000))).toContain("too large");
  });

  test("too many nodes", () => {
    const breaks = Array.from({ length: MAX_NODES }, () => ({ type: "hardBreak" }));
    expect(rejection(JSON.stringify(inline(...breaks)))).toEndWith(`the document has too many nodes (at most ${MAX_NODES})`);
  });

  test("too many marks on one node", () => {
    const marks = Array.from({ length: MAX_MARKS + 1 }, (_, i) => ({ type: "comment", attrs: { commentId: `c${i}` } }));
    expect(rejection(JSON.stringify(inline(text("x", marks))))).toBe(`content[0].content[0].marks: at most ${MAX_MARKS} marks on one node`);
    expect(() => checkContentJson(JSON.stringify(inline(text("x", marks.slice(1)))))).not.toThrow();
  });

  test.each<[string, string, string]>([
    ["__proto__ on a node", '{"type":"doc","content":[{"type":"paragraph","__proto__":{"polluted":1}}]}', 'unknown key "__proto__"'],
    [
      "__proto__ in attrs",
      '{"type":"doc","content":[{"type":"heading","attrs":{"__proto__":{"level":7}}}]}',
      'unknown attribute "__proto__"',
    ],
    [
      "__proto__ in mark attrs",
      '{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"x",' +
        '"marks":[{"type":"bold","attrs":{"__proto__":{"x":1}}}]}]}]}',
      'unknown attribute "__proto__"',
    ],
    [
      "constructor as attribute",
      '{"type":"doc","content":[{"type":"paragraph","attrs":{"constructor":1}}]}',
      'unknown attribute "constructor"',
    ],
    ["__proto__ as node type", '{"type":"doc","content":[{"type":"__proto__"}]}', 'unknown node type "__proto__"'],
    ["constructor as node type", '{"type":"doc","content":[{"type":"constructor"}]}', 'unknown node type "constructor"'],
    [
      "toString as mark type",
      '{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"x","marks":[{"type":"toString"}]}]}]}',
      'unknown mark type "toString"',
    ],
    ["__proto__ as the doc", '{"__proto__":{"type":"doc"}}', '"type": "doc"'],
  ])("%s", (_, input, reason) => {
    expect(rejection(input)).toContain(reason);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).level).toBeUndefined();
  });

  test("a long unknown type name is cut short in the message", () => {
    expect(rejection(JSON.stringify(docOf({ type: "x".repeat(100_000) })))).toHaveLength('content[0]: unknown node type ""'.length + 61);
  });
});

/** Mulberry32 (the fuzzer's), so a failing case can be replayed from its seed. */
const random = (seed: number) => rng(seed).next;

const KEYS = [
  "type",
  "attrs",
  "content",
  "marks",
  "text",
  "__proto__",
  "constructor",
  "level",
  "href",
  "kind",
  "src",
  "colspan",
  "commentId",
  "id",
];
const WORDS = [
  "doc",
  "paragraph",
  "text",
  "heading",
  "table",
  "tableRow",
  "listItem",
  "bold",
  "code",
  "link",
  "blink",
  "javascript:alert(1)",
  "",
  "管理",
];

describe("fuzz", () => {
  test("mutated and random documents are either stored or refused with a 400, never anything else", () => {
    let accepted = 0;
    let refused = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const rnd = random(seed);
      const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)];
      const value = (depth: number): unknown => {
        const r = rnd();
        if (depth > 2 || r < 0.5) return pick<unknown>([null, true, 0, -1, 7, 1e308, 0.5, ...WORDS]);
        if (r < 0.75) return Array.from({ length: Math.floor(rnd() * 3) }, () => value(depth + 1));
        return Object.fromEntries(Array.from({ length: Math.floor(rnd() * 3) }, () => [pick(KEYS), value(depth + 1)]));
      };
      const doc: any = everythingDocument();
      const objects: any[] = [];
      const collect = (v: any) => {
        if (v && typeof v === "object") objects.push(v), Object.values(v).forEach(collect);
      };
      collect(doc);
      for (let m = 1 + Math.floor(rnd() * 3); m > 0; m--) {
        const target = pick(objects);
        const key = Array.isArray(target) ? Math.floor(rnd() * (target.length + 1)) : pick(KEYS);
        // defineProperty, so "__proto__" becomes an own key as JSON.parse would make it.
        if (rnd() < 0.2) delete target[key];
        else Object.defineProperty(target, key, { value: value(0), enumerable: true, writable: true, configurable: true });
      }
      const input = rnd() < 0.05 ? JSON.stringify(doc).slice(0, Math.floor(rnd() * 500)) : JSON.stringify(doc);
      try {
        const { json } = checkContentJson(input);
        expect(checkContentJson(json).json).toBe(json);
        accepted++;
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 400) throw new Error(`seed ${seed}: ${String(error)}\n${input}`);
        refused++;
      }
    }
    expect(accepted).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(1000);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });
});
