import type { Core } from "../core";
import { wordsNear } from "./distance";
import { searchIndex } from "./indexer";
import type { ParsedQuery, Term } from "./query";
import type { SearchIndex } from "./search-index";
import { fold, hasCjk } from "./segment";
import { vocabulary } from "./vocabulary";

/**
 * Mistyped words ("biling", "invoces", "postgress"): the words of the index within a small
 * edit distance of a query word, tried when the words as typed find few pages.
 *
 * The index holds porter stems, not words ("billing" is "bill", "postgres" is "postgr"), so a
 * distance to a stem would be the wrong one ("postgress" is three edits from "postgr"). Two
 * ways in, both ending in stems that really are in the index:
 *   1. every string one edit from the typed word, stemmed by the index's own tokenizer (a few
 *      hundred strings, under a millisecond): exact for one edit;
 *   2. for longer words (two edits allowed), the vocabulary walked once (distance.ts) against
 *      the typed word, or the typed word without a common ending, since stems lack them
 *      ("acomodation" without "ation" is two edits from "accommod").
 */

/** A word of fewer letters is never corrected (too many words are one edit from it). */
const MIN_LETTERS = 4;
/** From this many letters, two edits. */
const TWO_EDITS_FROM = 8;
/** Alternatives per word at most: the closest, then the most common. */
const MAX_ALTERNATIVES = 12;
/** Endings that stems lack, for way 2; what is left of the word must still be this long. */
const ENDINGS = new Set([
  "s",
  "es",
  "ed",
  "ing",
  "ings",
  "e",
  "er",
  "ers",
  "ly",
  "y",
  "ies",
  "ied",
  "ion",
  "ions",
  "ation",
  "ations",
  "al",
  "ally",
  "ment",
  "ments",
  "ness",
  "ity",
  "ive",
  "ize",
  "ized",
  "able",
  "ous",
  "ful",
]);
const MIN_KEPT = 5;
const LATIN = "abcdefghijklmnopqrstuvwxyz";

function allowedEdits(word: string): number {
  const letters = [...word].length;
  return letters >= TWO_EDITS_FROM ? 2 : letters >= MIN_LETTERS ? 1 : 0;
}

interface Candidate {
  stem: string;
  /** A word the index's tokenizer turns into `stem`: what the FTS5 query names (it stems what it is given). */
  word: string;
  edits: number;
}

/**
 * The query with each correctable word widened to "the word OR its near words", and the stems
 * those near words stand for (to highlight them). Null when no word has a near word.
 */
export function fuzzyQuery(core: Core, q: ParsedQuery): { query: ParsedQuery; stems: Set<string>; stemsByTerm: Array<Set<string>> } | null {
  const stems = new Set<string>();
  const stemsByTerm: Array<Set<string>> = [];
  const index = searchIndex(core);
  let vocab: Vocabulary | null = null; // read (its version checked) once per query, and only if a word is correctable
  const must = q.must.map((term): Term => {
    const near = term.kind === "word" ? nearWords(index, () => (vocab ??= vocabulary(core, index)), term.text) : [];
    for (const c of near) stems.add(c.stem);
    stemsByTerm.push(new Set(near.map((c) => c.stem)));
    return near.length ? { ...term, alternatives: near.map((c) => c.word) } : term;
  });
  return stems.size ? { query: { must, not: q.not }, stems, stemsByTerm } : null;
}

/**
 * What a near-spelling hit matched, as a query: each corrected word replaced by the first word
 * of the page's text that stands for one of its near stems ("kubernets" → "kubernetes"), for
 * the palette's "Showing results for …". `stemOf` holds the stems of the words found.
 */
export function spelledAs(
  q: ParsedQuery,
  stemsByTerm: ReadonlyArray<ReadonlySet<string>>,
  text: string,
  stemOf: ReadonlyMap<string, string>,
): string {
  const words = [...fold(text).matchAll(/\p{L}+/gu)].map(([w]) => w).filter((w) => stemOf.has(w));
  return q.must
    .map((term, i) => {
      const near = stemsByTerm[i];
      const found = near?.size ? words.find((w) => near.has(stemOf.get(w)!)) : undefined;
      return found ?? (term.kind === "phrase" ? `"${term.text}"` : term.kind === "prefix" ? `${term.text}*` : term.text);
    })
    .join(" ");
}

type Vocabulary = ReturnType<typeof vocabulary>;

function nearWords(index: SearchIndex, vocabularyNow: () => Vocabulary, typed: string): Candidate[] {
  const word = fold(typed);
  const edits = allowedEdits(word);
  if (edits === 0 || !/^\p{L}+$/u.test(word) || hasCjk(word)) return []; // CJK is matched by character
  const stemEach = (words: readonly string[]) => index.termsOf(words);
  const vocab = vocabularyNow();
  const found = new Map<string, Candidate>();

  // 1. One edit, as typed; stemmed by the index's tokenizer (with the word itself, in one call).
  const variants = oneEditFrom(word, alphabetFor(word));
  const [own, ...variantStems] = stemEach([word, ...variants]);
  variants.forEach((v, i) => {
    const stem = variantStems[i];
    if (stem && stem !== own && vocab.docs.has(stem) && !found.has(stem)) found.set(stem, { stem, word: v, edits: 1 });
  });

  // 2. Two edits, against the stems themselves (with or without a common ending).
  if (edits === 2) {
    const endsAt = (j: number) => j === word.length || (j >= MIN_KEPT && ENDINGS.has(word.slice(j)));
    const near = [...wordsNear(vocab.sorted, word, edits, endsAt)].filter(([stem]) => stem !== own && !found.has(stem));
    // The FTS5 query stems what it is given, and porter does not always leave a stem as it is
    // ("agre" → "agr"): name each by a word that stems to it, the stem itself or it plus "e".
    const asWords = near.flatMap(([stem]) => [stem, `${stem}e`]);
    const theirStems = stemEach(asWords);
    near.forEach(([stem, d], i) => {
      const word = theirStems[2 * i] === stem ? asWords[2 * i] : theirStems[2 * i + 1] === stem ? asWords[2 * i + 1] : null;
      if (word) found.set(stem, { stem, word, edits: d });
    });
  }
  const docs = (c: Candidate) => vocab.docs.get(c.stem) ?? 0;
  return [...found.values()]
    .sort((a, b) => a.edits - b.edits || docs(b) - docs(a) || (a.stem < b.stem ? -1 : 1))
    .slice(0, MAX_ALTERNATIVES);
}

/** Latin letters, and the letters of a word in another script (a typo is made with the same keyboard). */
function alphabetFor(word: string): string[] {
  return [...new Set([...LATIN, ...word])];
}

/** Every string one deletion, swap of neighbours, substitution or insertion away (not the word itself). */
export function oneEditFrom(word: string, letters: readonly string[]): string[] {
  const chars = [...word];
  // head[i] + tail[j]: the word with chars i..j-1 replaced (by character, not UTF-16 unit).
  const head = chars.map((_, i) => chars.slice(0, i).join(""));
  const tail = [...chars.map((_, i) => chars.slice(i).join("")), ""];
  head.push(word);
  const out = new Set<string>();
  for (let i = 0; i < chars.length; i++) {
    out.add(head[i] + tail[i + 1]);
    if (i + 1 < chars.length) out.add(head[i] + chars[i + 1] + chars[i] + tail[i + 2]);
    for (const l of letters) out.add(head[i] + l + tail[i + 1]);
  }
  for (let i = 0; i <= chars.length; i++) for (const l of letters) out.add(head[i] + l + tail[i]);
  out.delete(word);
  return [...out];
}

/**
 * The words of these texts that the index holds under one of `stems` (what a fuzzy match
 * actually matched, for the snippet's highlight). Only words sharing a stem's beginning are
 * stemmed: porter changes endings only, at most a stem's last letter ("fly" → "fli").
 */
export function wordsWithStems(index: SearchIndex, texts: readonly string[], stems: ReadonlySet<string>): Set<string> {
  const start = (w: string) => w.slice(0, Math.min(3, w.length - 1));
  const starts = new Set([...stems].map(start));
  const seen = new Set<string>();
  for (const text of texts) {
    for (const [w] of fold(text).matchAll(/\p{L}+/gu)) if (starts.has(w.slice(0, 3)) || starts.has(w.slice(0, 2))) seen.add(w);
  }
  const words = [...seen];
  const theirStems = index.termsOf(words);
  return new Set(words.filter((_, i) => stems.has(theirStems[i]!)));
}
