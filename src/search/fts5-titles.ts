import { sql, type SQL } from "drizzle-orm";
import type { Core } from "../core";
import type { ParsedQuery } from "./query";
import { fold, segmentCjk } from "./segment";
import { stemEach, termsInOrder } from "./stemmer";

/**
 * Part of the FTS5 index (fts5.ts): the pages whose title holds every word of a query, ranked
 * by bm25's formula over their titles. Found in the trigram index of titles when it can answer
 * (it holds titles only, so a word common in bodies costs nothing there), else in the word
 * index's title column (which walks every page holding the word, title or not).
 */

/** Titles weigh ten times the body in the ranking (bm25 column weights). */
export const TITLE_WEIGHT = 10;
/** bm25's constants in FTS5 (fts5_aux.c). */
const K1 = 1.2;
const B = 0.75;
/** Titles read per round from the trigram index, which also finds titles that only look alike. */
const ROUND = 600;

interface Candidate {
  docId: number;
  title: string;
  sz: Uint8Array | null;
}

/**
 * The `max` newest pages in scope whose title holds every word, best first. `titleQuery` is the
 * word index's query on the title column (query.ts, toTitleWordQuery).
 */
export function titleMatches(core: Core, query: ParsedQuery, titleQuery: string, scope: SQL, max: number): Array<{ docId: number }> {
  const terms = termForms(query);
  const starts = wordStarts(query);
  const counted: Array<Candidate & { tf: number[] }> = [];
  if (starts) {
    const fragments = starts.map((s) => `"${s}"`).join(" AND ");
    // Every title holding the words holds these fragments; those that merely look alike
    // ("observer" for "serve") are left out by counting the words with the index's tokenizer.
    let before = Number.MAX_SAFE_INTEGER;
    while (counted.length < max) {
      const rows = core.db.all<Candidate>(sql`
        SELECT search_titles.rowid AS docId, pages.title AS title, d.sz AS sz
        FROM search_titles JOIN pages ON pages.doc_id = search_titles.rowid JOIN spaces ON spaces.id = pages.space_id
        LEFT JOIN search_words_docsize d ON d.id = search_titles.rowid
        WHERE search_titles MATCH ${fragments} AND search_titles.rowid < ${before} AND ${scope}
        ORDER BY search_titles.rowid DESC LIMIT ${ROUND}`);
      for (const row of withCounts(terms, rows, starts)) if (counted.length < max && row.tf.every((n) => n > 0)) counted.push(row);
      if (rows.length < ROUND) break;
      before = rows[rows.length - 1].docId;
    }
  } else {
    const rows = core.db.all<Candidate>(sql`
      SELECT search_words.rowid AS docId, pages.title AS title, d.sz AS sz
      FROM search_words JOIN pages ON pages.doc_id = search_words.rowid JOIN spaces ON spaces.id = pages.space_id
      LEFT JOIN search_words_docsize d ON d.id = search_words.rowid
      WHERE search_words MATCH ${titleQuery} AND ${scope}
      ORDER BY search_words.rowid DESC LIMIT ${max}`);
    counted.push(...withCounts(terms, rows));
  }
  if (counted.length === 0) return [];
  // bm25 per title: each word's occurrences times TITLE_WEIGHT, against the page's length in
  // tokens (FTS5's docsize record) over the average. Every word weighs the same (bm25 would
  // weigh each by its rarity among titles, which costs a count of them all), so only titles
  // that repeat one word more than another can come in another order than bm25's.
  const avg = averageTokens(core);
  return counted
    .map((row) => {
      const length = varints(row.sz).reduce((a, b) => a + b, 0);
      const score = row.tf.reduce((sum, tf) => sum + (TITLE_WEIGHT * tf * (K1 + 1)) / (TITLE_WEIGHT * tf + K1 * (1 - B + (B * length) / avg)), 0);
      return { docId: row.docId, score };
    })
    .sort((a, b) => b.score - a.score || a.docId - b.docId);
}

interface TermForms {
  prefix: boolean;
  /** The term and its alternatives, each as the index's tokens. */
  forms: string[][];
}

function termForms(query: ParsedQuery): TermForms[] {
  const texts = query.must.map((t) => [t.text, ...(t.alternatives ?? [])]);
  const tokens = termsInOrder(texts.flat().map(segmentCjk));
  let at = 0;
  return query.must.map((t, i) => ({ prefix: t.kind === "prefix", forms: texts[i].map(() => tokens[at++]).filter((f) => f.length > 0) }));
}

/**
 * Each row with how often each term is in its title, counted in the index's own tokens. Given
 * the words' `starts` (wordStarts), only title words with one of them are stemmed: no other
 * can have a word's stem.
 */
function withCounts(terms: TermForms[], rows: Candidate[], starts?: string[]): Array<Candidate & { tf: number[] }> {
  const titles = starts ? titleTokens(rows, starts) : termsInOrder(rows.map((r) => segmentCjk(r.title)));
  return rows.map((row, r) => ({ ...row, tf: terms.map((t) => t.forms.reduce((n, form) => n + occurrences(titles[r], form, t.prefix), 0)) }));
}

/** Title tokens as the index cuts and folds them (letters, digits, marks), stems for those with a start. */
function titleTokens(rows: Candidate[], starts: string[]): string[][] {
  const words = rows.map((r) => Array.from(fold(r.title).matchAll(TOKEN), (m) => m[0]));
  const toStem = [...new Set(words.flat().filter((w) => starts.some((s) => w.startsWith(s))))];
  const stems = new Map(stemEach(toStem).map((stem, i) => [toStem[i], stem ?? toStem[i]]));
  return words.map((list) => list.map((w) => stems.get(w) ?? ""));
}

/** How often the token sequence `form` is in `tokens` (its last token a prefix, for prefix*). */
function occurrences(tokens: readonly string[], form: readonly string[], prefix: boolean): number {
  let n = 0;
  for (let i = 0; i + form.length <= tokens.length; i++) {
    let k = 0;
    while (k < form.length && (tokens[i + k] === form[k] || (prefix && k === form.length - 1 && tokens[i + k].startsWith(form[k])))) k++;
    if (k === form.length) n++;
  }
  return n;
}

const PLAIN_WORD = /^[a-z]+$/;
/** A token as the index's tokenizer (unicode61) cuts them: letters, digits, marks, private use. */
const TOKEN = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/**
 * A beginning that every word with the same stem as a query word has (one per query word), for
 * the trigram index; null when there is none to be sure of (phrases, prefixes, alternatives,
 * excluded words, other scripts, short stems). The word index holds porter stems, and porter
 * only rewrites a word's ending, the stem's last letter at most not being the word's ("happy"
 * → "happi", "hoping" → "hope"): so every word with that stem begins with the stem less its
 * last letter, and so does the typed word, as far as both agree.
 */
function wordStarts(query: ParsedQuery): string[] | null {
  const words = query.must.map((t) => t.text.toLowerCase());
  if (query.not.length || query.must.some((t) => t.kind !== "word" || t.alternatives?.length) || !words.every((w) => PLAIN_WORD.test(w))) return null;
  const stems = stemEach(words);
  const starts: string[] = [];
  for (const [i, word] of words.entries()) {
    const stem = stems[i];
    if (!stem) return null;
    let k = 0;
    while (k < stem.length - 1 && stem[k] === word[k]) k++;
    if (k < 3) return null; // a trigram index needs three letters
    starts.push(word.slice(0, k));
  }
  return starts;
}

/** Average tokens per page, from FTS5's averages record (rows, then tokens per column). */
function averageTokens(core: Core): number {
  const block = core.sqlite.query<{ block: Uint8Array }, []>("SELECT block FROM search_words_data WHERE id = 1").get()?.block ?? null;
  const [rows = 0, ...columns] = varints(block);
  return rows > 0 ? columns.reduce((a, b) => a + b, 0) / rows || 1 : 1;
}

/** SQLite varints, as FTS5 writes its size records (7 bits a byte, high bit: more follow). */
function varints(bytes: Uint8Array | null): number[] {
  const out: number[] = [];
  let value = 0;
  for (const byte of bytes ?? []) {
    value = value * 128 + (byte & 0x7f);
    if (byte < 0x80) {
      out.push(value);
      value = 0;
    }
  }
  return out;
}
