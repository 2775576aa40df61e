import { describe, expect, test } from "bun:test";
import { parseQuery, toExclusionQuery, toFragmentQuery, toWordQuery } from "./query";
import { snippetFor } from "./snippet";

describe("parseQuery → FTS5", () => {
  test.each([
    ["backup restore", '"backup" AND "restore"'],
    ['"disaster recovery" plan', '"disaster recovery" AND "plan"'],
    ["deploy*", '"deploy"*'],
    ["kernel -linux", '("kernel") NOT "linux"'],
    ["管理", '"管 理"'],
    ['say "hi', '"say" AND "hi"'],
    ['a"b', '"a""b"'],
    ["NEAR(a b) OR c", '"NEAR(a" AND "b)" AND "OR" AND "c"'],
    ["-only -negative", null],
    ["*** --- !!!", null],
    ["", null],
  ])("%j → %j", (input, expected) => {
    expect(toWordQuery(parseQuery(input))).toBe(expected);
  });

  test("exclusions are one OR query; fragments need three characters", () => {
    expect(toExclusionQuery(parseQuery("a -b -c"))).toBe('"b" OR "c"');
    expect(toFragmentQuery(parseQuery("onfig"))).toBe('"onfig"');
    expect(toFragmentQuery(parseQuery("on"))).toBeNull();
  });
});

describe("snippetFor", () => {
  const text = "Intro words here. " + "filler ".repeat(40) + "We are deploying the new backup server tonight. " + "tail ".repeat(60);

  test("is the passage that matched, with the matching words in **", () => {
    const s = snippetFor(text, parseQuery("deploy backup").must);
    expect(s).toContain("**deploying**");
    expect(s).toContain("**backup**");
    expect(s.startsWith("…")).toBe(true);
    expect(s.endsWith("…")).toBe(true);
    expect(s.length).toBeLessThan(260);
  });

  test("CJK and diacritics", () => {
    expect(snippetFor("系统管理员手册", parseQuery("管理").must)).toBe("系统**管理**员手册");
    expect(snippetFor("Le café est ouvert", parseQuery("cafe").must)).toBe("Le **café** est ouvert");
    expect(snippetFor("한국어 문서 관리", parseQuery("관리").must)).toBe("한국어 문서 **관리**");
  });

  test("no match in the body: the start of the text", () => {
    expect(snippetFor("Just a body.", parseQuery("title-only").must)).toBe("Just a body.");
  });
});
