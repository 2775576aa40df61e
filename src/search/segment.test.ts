import { expect, test } from "bun:test";
import { segmentCjk } from "./segment";

// What the loop must answer: the regex it replaced, character for character.
const CJK =
  /[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f\u{20000}-\u{2fa1f}]/gu;
const byRegex = (text: string) => text.replace(CJK, " $& ");

test("CJK characters get a space either side, as the Unicode regex puts them; other text is left as is", () => {
  const cases = [
    "",
    "plain ascii",
    "café — naïve",
    "権限の管理について",
    "한국어 テスト ｶﾀｶﾅ",
    "ᄀᄁ",
    "mixed管理text",
    "𠀀x𪛖y",
    "\u{2fa1d}\u{2fa1e}\u{2fa1f}\u{2fa20}",
    "lone \ud840 high",
    "lone \udc00 low",
    "emoji 😀 and 🀄",
    "\ud87e",
    "end with 管",
    "管",
    "\u10ff\u1100\u11ff\u1200\u303f\u3040\u30ff\u3100\u312f\u3130\u318f\u3190\u33ff\u3400\u4dbf\u4dc0\u4dff\u4e00" +
      "\u9fff\ua000\uabff\uac00\ud7af\ud7b0\uf8ff\uf900\ufaff\ufb00\uff65\uff66\uff9f\uffa0",
  ];
  for (const text of cases) expect(segmentCjk(text)).toBe(byRegex(text));
  // Every BMP code unit alone, and each next to a supplementary-plane character.
  for (let c = 0; c < 0x10000; c++) {
    const text = `a${String.fromCharCode(c)}b`;
    expect(segmentCjk(text)).toBe(byRegex(text));
  }
  for (let high = 0xd800; high <= 0xdbff; high++) {
    for (const low of [0xdbff, 0xdc00, 0xde1f, 0xde20, 0xdfff, 0xe000]) {
      const text = `a${String.fromCharCode(high, low)}b`;
      expect(segmentCjk(text)).toBe(byRegex(text));
    }
  }
  for (const cp of [0x1ffff, 0x20000, 0x2a6d6, 0x2fa1f, 0x2fa20, 0x30000, 0x10ffff]) {
    const text = `x${String.fromCodePoint(cp)}${String.fromCodePoint(cp)}y`;
    expect(segmentCjk(text)).toBe(byRegex(text));
  }
});
