/**
 * Chinese, Japanese and Korean text has no spaces between words, so the word index would see a
 * whole sentence as one token and a two-character query such as 管理 would find nothing.
 * Every CJK character is indexed as its own token instead; a CJK query becomes a phrase of its
 * characters, which matches them side by side, at any length (docs/decisions.md, "CJK by
 * character").
 */
const CJK =
  /[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f\u{20000}-\u{2fa1f}]/gu;

/** A space either side of every character CJK matches; a loop costs half the regex's CPU. */
export function segmentCjk(text: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x1100) continue;
    if (isCjkUnit(c)) {
      out += `${text.slice(from, i)} ${text[i]} `;
      from = i + 1;
    } else if (c >= 0xd840 && c <= 0xd87e && i + 1 < text.length) {
      // U+20000–U+2FA1F as a surrogate pair.
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff && (c - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000 <= 0x2fa1f) {
        out += `${text.slice(from, i)} ${text.slice(i, i + 2)} `;
        from = i + 2;
        i++;
      }
    }
  }
  return from === 0 ? text : out + text.slice(from);
}

/** A code unit in CJK's ranges below U+10000. */
function isCjkUnit(c: number): boolean {
  return (
    c <= 0x11ff ||
    (c >= 0x3040 && c <= 0x30ff) ||
    (c >= 0x3130 && c <= 0x318f) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0xac00 && c <= 0xd7af) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xff66 && c <= 0xff9f)
  );
}

export function hasCjk(text: string): boolean {
  CJK.lastIndex = 0;
  const found = CJK.test(text);
  CJK.lastIndex = 0;
  return found;
}

/**
 * Lower-case and strip Latin diacritics, as the index's tokenizer does (remove_diacritics 2),
 * one character for one, so offsets in the folded text are offsets in the original. (A whole-
 * string NFKD would split Hangul syllables into jamo and shift every offset.)
 */
export function fold(text: string): string {
  return text.replace(/[\u00c0-\u024f\u1e00-\u1eff]/g, (c) => c.normalize("NFD")[0]).toLowerCase();
}
