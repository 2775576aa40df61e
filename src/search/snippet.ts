import { fold } from "./segment";
import type { Term } from "./query";

/** The passage: this much before the first match and after its start (about 220 characters). */
const BEFORE = 60;
const AFTER = 160;

/** A rough English stem, enough to highlight "deploying" for the query "deploy" (porter). */
function stem(word: string): string {
  return word.length > 4 ? word.replace(/(ing|ed|es|s|ly)$/, "") : word;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Query terms by a rough stem from a word start; `words` (fuzzy matches, already exact) whole. */
function matcher(terms: readonly Term[], words: Iterable<string>): RegExp | null {
  const parts = terms
    .filter((t) => t.text)
    .map((t) => {
      const text = escape(fold(t.text)).replace(/\s+/g, "\\s+");
      // Latin words match from a word start; CJK (no word boundaries) anywhere.
      return /^[\p{Script=Latin}\p{N}]/u.test(text) ? `(?<![\\p{L}\\p{N}])${t.kind === "phrase" ? text : stem(text)}[\\p{L}\\p{N}]*` : text;
    });
  for (const w of words) parts.push(`(?<![\\p{L}\\p{N}])${escape(w)}(?![\\p{L}\\p{N}])`);
  return parts.length ? new RegExp(parts.join("|"), "giu") : null;
}

/** Lower case without diacritics, one UTF-16 unit for one, so offsets in it are offsets in the text. */
function foldInPlace(text: string): string {
  const folded = fold(text);
  if (folded.length === text.length) return folded;
  return Array.from(text, (c) => (fold(c).length === c.length ? fold(c) : c)).join(""); // e.g. "İ" lower-cases to two units
}

/** Letters and digits of scripts written with spaces: a cut between two of them would split a word. */
const WORDY = /[\p{L}\p{N}\p{M}_]/u;
const NO_SPACES =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const JOINS_PREVIOUS = /[\p{M}\u200d\ufe00-\ufe0f\u{1f3fb}-\u{1f3ff}]/u;

/** May the text be cut before index p (a word boundary, not inside a character or a word)? */
function canCut(s: string, p: number): boolean {
  if (p <= 0 || p >= s.length) return true;
  const code = s.charCodeAt(p);
  if (code >= 0xdc00 && code <= 0xdfff) return false; // the second half of a surrogate pair
  const after = String.fromCodePoint(s.codePointAt(p)!);
  const low = s.charCodeAt(p - 1);
  const before = low >= 0xdc00 && low <= 0xdfff && p >= 2 ? s.slice(p - 2, p) : s[p - 1];
  if (JOINS_PREVIOUS.test(after) || before === "\u200d") return false;
  if (NO_SPACES.test(before) || NO_SPACES.test(after)) return true; // CJK, Thai…: between any two characters
  return !(WORDY.test(before) && WORDY.test(after));
}

type Range = [start: number, end: number];
const inside = (ranges: readonly Range[], p: number) => ranges.some(([a, b]) => a < p && p < b);
const SPACE = /\s/;

/** Where the passage starts: the first word start at or after `from`, at the latest `limit` (the first match). */
function startAt(s: string, from: number, limit: number): number {
  for (let p = from; p < limit; p++) if (SPACE.test(s[p - 1])) return p;
  for (let p = from; p < limit; p++) if (canCut(s, p)) return p;
  return limit;
}

/**
 * Where the passage ends: the last word end at or before `to` that is not inside a match, at
 * the earliest `min` (the end of the first match, so that it is always whole). With no word
 * boundary at all in between (one endless word), the cut is made at `to` or after the match
 * that covers it, between two characters.
 */
function endAt(s: string, to: number, min: number, ranges: readonly Range[]): number {
  for (let p = to; p > min; p--) if (SPACE.test(s[p]) && !inside(ranges, p)) return p;
  for (let p = to; p > min; p--) if (canCut(s, p) && !inside(ranges, p)) return p;
  if (min > 0) return min;
  let p = ranges.find(([a, b]) => a < to && to < b)?.[1] ?? to;
  while (p < s.length && s.charCodeAt(p) >= 0xdc00 && s.charCodeAt(p) <= 0xdfff) p++;
  return p;
}

/** The next non-empty match at or after `from`. */
function nextMatch(re: RegExp, folded: string, from: number): Range | null {
  re.lastIndex = from;
  for (let m = re.exec(folded); m; m = re.exec(folded)) {
    if (m[0].length > 0) return [m.index, m.index + m[0].length];
    re.lastIndex++;
  }
  return null;
}

const hasText = (s: string) => /\S/.test(s);

/** Characters that fold() changes other than by case (Latin letters with diacritics). */
const FOLDED_AWAY = /[\u00c0-\u024f\u1e00-\u1eff]/;

/**
 * The first match and the matches starting up to AFTER past it. The matcher ignores case, so
 * only a text with letters that fold() strips of diacritics is folded (foldInPlace) first:
 * folding every hit's whole page cost more than the rest of its snippet. And only the part of
 * the text the passage can come from is looked at for such letters: up to the first match on
 * the text as it is, plus the passage after it and the matcher's length (a match that folding
 * would add must hold such a letter before that point; one it would move earlier, too).
 * Looking through a whole page for them (texts with CJK are 16-bit strings, slow to scan) took
 * a third of a snippet's time.
 */
function passageMatches(text: string, re: RegExp): Range[] {
  let folded = text;
  let first = nextMatch(re, text, 0);
  const looked = first ? Math.max(first[1], first[0] + AFTER) + re.source.length : text.length;
  if (FOLDED_AWAY.test(looked < text.length ? text.slice(0, looked) : text)) {
    folded = foldInPlace(text);
    first = nextMatch(re, folded, 0);
  }
  if (!first) return [];
  const ranges = [first];
  const to = Math.max(first[1], first[0] + AFTER);
  for (let m = nextMatch(re, folded, first[1]); m && m[0] < to; m = nextMatch(re, folded, m[1])) ranges.push(m);
  return ranges;
}

/**
 * The passage of the page's text where the query matched, with the matching words in `**`.
 * Built here rather than by FTS5, because the index holds CJK text split into characters.
 * Cut only between words and never inside a match, so every `**` has its partner. The text's
 * own asterisks are shown as "∗" (U+2217), so that every `*` in a snippet is part of a marker:
 * "**bold**" pasted into a page would otherwise read as markers, or half of one. Only the
 * matches up to the passage's end are looked for (a common word is on every line).
 */
export function snippetFor(text: string, terms: readonly Term[], words: Iterable<string> = []): string {
  return snippetsFor(terms, words)(text);
}

/**
 * snippetFor for many texts and one query: its matcher is built once (building it for each of
 * a search's 50 hits cost a tenth of their snippets).
 */
export function snippetsFor(terms: readonly Term[], words: Iterable<string> = []): (text: string) => string {
  const re = matcher(terms, words);
  return (text) => passageOf(text, re);
}

function passageOf(text: string, re: RegExp | null): string {
  const ranges = re ? passageMatches(text, re) : [];
  let start = 0;
  let end: number;
  if (ranges.length === 0) {
    end = text.length <= BEFORE + AFTER ? text.length : endAt(text, BEFORE + AFTER, 0, []);
  } else {
    const [a, b] = ranges[0];
    const to = Math.max(b, a + AFTER);
    if (a - BEFORE > 0) start = startAt(text, a - BEFORE, a);
    end = to >= text.length ? text.length : endAt(text, to, b, ranges);
  }
  const show = (from: number, to: number) => text.slice(from, to).replace(/\*/g, "\u2217");
  let out = "";
  let at = start;
  for (const [a, b] of ranges) {
    if (b > end) break;
    out += show(at, a) + "**" + show(a, b) + "**";
    at = b;
  }
  out += show(at, end);
  return (hasText(text.slice(0, start)) ? "…" : "") + out.replace(/\s+/g, " ").trim() + (hasText(text.slice(end)) ? "…" : "");
}
