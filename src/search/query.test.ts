import { describe, expect, test } from "bun:test";
import { parseQuery, toExclusionQuery, toFragmentQuery, toWordQuery } from "./query";

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

  test("a term with near spellings matches any of them", () => {
    const q = parseQuery("biling report -draft");
    q.must[0].alternatives = ["billing", "filing"];
    expect(toWordQuery(q)).toBe('(("biling" OR "billing" OR "filing") AND "report") NOT "draft"');
  });
});
