/**
 * Chinese, Japanese and Korean text has no spaces between words, so the word index would see a
 * whole sentence as one token and a two-character query such as 管理 would find nothing.
 * Every CJK character is indexed as its own token instead; a CJK query becomes a phrase of its
 * characters, which matches them side by side, at any length (docs/decisions.md, "CJK by
 * character").
 */
const CJK = /[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f\u{20000}-\u{2fa1f}]/gu;

export function segmentCjk(text: string): string {
  return text.replace(CJK, " $& ");
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
