/**
 * The static site's search index, built while the pages are written and saved last as
 * `_site/search-index.js` (a script setting window.CAIRN_SEARCH: opened from disk, a page may
 * load scripts but not fetch files). A compact inverted index: every distinct word once, sorted,
 * each with the tree-order indices of the pages holding it, delta-encoded in base 36. A page
 * contributes its title's words and at most WORDS_PER_PAGE distinct words of its text, in the
 * order they come, so the index stays bounded however long the pages are (10,000 pages of 500
 * words: about 5 MB). site-client.js splits a query with the same norm() and WORD and matches
 * words by prefix.
 *
 * Memory: 10,000 pages make about two and a half million postings, so while the pages are
 * written they are a log of varints (page by page, ~2.5 bytes a posting), turned into each
 * word's pages only at the end (one counting pass, one Int32Array), and the file is written
 * as bytes, never as millions of small strings or arrays.
 */

export const WORDS_PER_PAGE = 400;
export const MAX_WORD = 32;
/** Characters of a page's text looked at for its words (its first WORDS_PER_PAGE distinct ones come well before). */
export const TEXT_SCANNED = 64 * 1024;
const NOT_WORD = /[^\p{L}\p{N}]+/u;
const ASCII = /^[\x00-\x7f]*$/;

/** Lower case, accents dropped: "Café" finds "cafe" and the other way round. */
export const normWords = (text: string) => (ASCII.test(text) ? text : text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "")).toLowerCase();

/**
 * The distinct words of a text, in order, cut at MAX_WORD characters, at most `max` of them.
 * (A split, not matchAll: a page's hundreds of words then cost no match objects each.)
 */
export function wordsOf(text: string, max: number, into = new Set<string>()): Set<string> {
  // The words come from the start of the text: a huge page costs no more than a long one.
  for (const word of normWords(text.length > TEXT_SCANNED ? text.slice(0, TEXT_SCANNED) : text).split(NOT_WORD)) {
    if (into.size >= max) break;
    if (word !== "") into.add(word.length > MAX_WORD ? word.slice(0, MAX_WORD) : word);
  }
  return into;
}

export class SearchIndexBuilder {
  /** word → its id (the order words were first seen). */
  private ids = new Map<string, number>();
  /** Page after page: the page's index, its number of words, their ids; all as varints. */
  private log = new Bytes();
  private postingCount = 0;

  /** Call with increasing page indices. */
  add(page: number, title: string, text: string): void {
    const words = wordsOf(title, Infinity);
    wordsOf(text, words.size + WORDS_PER_PAGE, words);
    this.log.varint(page);
    this.log.varint(words.size);
    for (const word of words) {
      let id = this.ids.get(word);
      if (id === undefined) {
        id = this.ids.size;
        // A copy of its own: a word cut from the page's text would keep all that text alive.
        this.ids.set(flat(word), id);
      }
      this.log.varint(id);
    }
    this.postingCount += words.size;
  }

  /** The whole index as the script file's bytes (written straight as bytes: no big strings). */
  script(): Uint8Array<ArrayBuffer> {
    // Turn the page-major log into each word's pages (ascending, since pages came in order).
    const wordCount = this.ids.size;
    const start = new Int32Array(wordCount + 1);
    this.log.read((_page, id) => start[id + 1]!++);
    for (let i = 0; i < wordCount; i++) start[i + 1]! += start[i]!;
    const fill = start.slice(0, wordCount);
    const pages = new Int32Array(this.postingCount);
    this.log.read((page, id) => (pages[fill[id]!++] = page));
    this.log = new Bytes();

    const words = [...this.ids.keys()].sort();
    const out = new Bytes(words.reduce((n, w) => n + w.length * 3 + 4, 64) + this.postingCount * 3);
    out.ascii('window.CAIRN_SEARCH={"v":1,"words":[');
    words.forEach((w, i) => out.text((i ? "," : "") + JSON.stringify(w)));
    out.ascii('],"postings":[');
    words.forEach((w, i) => {
      out.ascii(i ? ',"' : '"');
      const id = this.ids.get(w)!;
      let prev = 0;
      for (let at = start[id]!; at < start[id + 1]!; at++) {
        if (at > start[id]!) out.byte(COMMA);
        out.base36(pages[at]! - prev);
        prev = pages[at]!;
      }
      out.byte(QUOTE);
    });
    out.ascii("]};\n");
    return out.bytes();
  }
}

const flat = (word: string) => JSON.parse(JSON.stringify(word)) as string;
const COMMA = 44;
const QUOTE = 34;
const DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz";
const encoder = new TextEncoder();

/** A growable byte buffer, with varints (7 bits a byte) for the builder's log. */
class Bytes {
  private data: Uint8Array<ArrayBuffer>;
  private length = 0;
  constructor(capacity = 1 << 16) {
    this.data = new Uint8Array(capacity);
  }
  private room(n: number) {
    if (this.length + n <= this.data.length) return;
    const bigger = new Uint8Array(Math.max(this.data.length * 2, this.length + n));
    bigger.set(this.data.subarray(0, this.length));
    this.data = bigger;
  }
  byte(b: number) {
    this.room(1);
    this.data[this.length++] = b;
  }
  ascii(s: string) {
    this.room(s.length);
    for (let i = 0; i < s.length; i++) this.data[this.length++] = s.charCodeAt(i);
  }
  text(s: string) {
    this.room(s.length * 3);
    this.length += encoder.encodeInto(s, this.data.subarray(this.length)).written;
  }
  base36(n: number) {
    this.room(8);
    let digits = 1;
    for (let rest = Math.floor(n / 36); rest > 0; rest = Math.floor(rest / 36)) digits++;
    // Written from the last digit back (no view or string made per number: there are millions).
    for (let at = this.length + digits - 1; at >= this.length; at--) {
      this.data[at] = DIGITS.charCodeAt(n % 36);
      n = Math.floor(n / 36);
    }
    this.length += digits;
  }
  varint(n: number) {
    this.room(5);
    while (n >= 0x80) {
      this.data[this.length++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.data[this.length++] = n;
  }
  /** Reads back a log of (page, count, ids…) records, calling `each(page, id)` per word. */
  read(each: (page: number, id: number) => void) {
    let at = 0;
    const next = () => {
      let n = 0;
      for (let shift = 0; ; shift += 7) {
        const b = this.data[at++]!;
        n |= (b & 0x7f) << shift;
        if (b < 0x80) return n >>> 0;
      }
    };
    while (at < this.length) {
      const page = next();
      for (let count = next(); count > 0; count--) each(page, next());
    }
  }
  bytes(): Uint8Array<ArrayBuffer> {
    return this.data.subarray(0, this.length);
  }
}
