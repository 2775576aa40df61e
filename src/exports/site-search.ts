/**
 * The static site's search index, built while the pages are written and saved last as
 * `_site/search-index.js` (a script setting window.CAIRN_SEARCH: opened from disk, a page may
 * load scripts but not fetch files). A compact inverted index: every distinct word once, sorted,
 * each with the tree-order indices of the pages holding it, delta-encoded in base 36. A page
 * contributes its title's words and at most WORDS_PER_PAGE distinct words of its text, in the
 * order they come, so the index stays bounded however long the pages are (10,000 pages: a few MB).
 * site-client.js splits a query with the same norm() and WORD and matches words by prefix.
 */

export const WORDS_PER_PAGE = 400;
export const MAX_WORD = 32;
const WORD = /[\p{L}\p{N}]+/gu;

/** Lower case, accents dropped: "Café" finds "cafe" and the other way round. */
export const normWords = (text: string) => text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

/** The distinct words of a text, in order, cut at MAX_WORD characters, at most `max` of them. */
export function wordsOf(text: string, max: number, into = new Set<string>()): Set<string> {
  WORD.lastIndex = 0;
  for (const m of normWords(text).matchAll(WORD)) {
    if (into.size >= max) break;
    into.add(m[0].slice(0, MAX_WORD));
  }
  return into;
}

export class SearchIndexBuilder {
  /** word → the pages holding it, ascending (pages are added in tree order). */
  private postings = new Map<string, number[]>();

  /** Call with increasing page indices. */
  add(page: number, title: string, text: string): void {
    const words = wordsOf(title, Infinity);
    wordsOf(text, words.size + WORDS_PER_PAGE, words);
    for (const word of words) {
      const list = this.postings.get(word);
      if (list) list.push(page);
      else this.postings.set(word, [page]);
    }
  }

  /** The whole index as the script file's text. */
  script(): string {
    const words = [...this.postings.keys()].sort();
    const lists = words.map((w) => {
      let prev = 0;
      return this.postings
        .get(w)!
        .map((p) => {
          const d = p - prev;
          prev = p;
          return d.toString(36);
        })
        .join(",");
    });
    return `window.CAIRN_SEARCH=${JSON.stringify({ v: 1, words, postings: lists })};\n`;
  }
}
