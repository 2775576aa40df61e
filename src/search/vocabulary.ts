import type { Core } from "../core";
import { perInstance } from "../platform/memo";
import type { SearchIndex } from "./search-index";
import { hasCjk } from "./segment";

/**
 * The word index's vocabulary (its porter stems), in memory, for finding words near a
 * mistyped one, read from the index (SearchIndex.allTerms).
 *
 * Reading it whole walks every posting of the index (about 1.1 s for 100,000 pages of 500
 * words, 0.1 s for 5,000 pages holding 46,000 stems), so it is read once, by the first search
 * that needs it, and then kept up to date cheaply: the indexer notes which pages it wrote
 * (noteIndexed, a Set insert), and the next search that needs the vocabulary splits just those
 * pages into words and has only the words it never saw before turned into terms. Terms that
 * left the index stay until the next full read; they cost nothing but a wasted alternative,
 * since every candidate is looked up in the index again. It is read whole again when very many
 * pages were noted, or when another connection committed (PRAGMA data_version): what that one
 * wrote is not known here (SearchIndex.outsideVersion).
 */

/** Only words are corrected: letters only, not shorter than the shortest correctable stem. */
const ELIGIBLE = /^\p{L}{3,32}$/u;
/** Beyond this many pages noted since the last read, reading the whole vocabulary again is about as cheap. */
const REREAD_AFTER = 20_000;
/** A token as the index's tokenizer (unicode61) cuts them: letters, digits, marks, private use. */
const TOKEN = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const WORD = /^\p{L}{3,}$/u;

interface State {
  loaded: boolean;
  version: number;
  /** Pages (doc ids) indexed since the vocabulary was read. */
  noted: Set<number>;
  /** Words (lower case) of noted pages already turned into terms: only new ones are. */
  seen: Set<string>;
  /** Term → pages holding it (as of when it was read; 1 for a term added since). */
  docs: Map<string, number>;
  /** The same terms, sorted, for the edit-distance walk (terms sharing a prefix are neighbours). */
  sorted: string[];
}

const state = perInstance(
  (_core: Core): State => ({ loaded: false, version: 0, noted: new Set(), seen: new Set(), docs: new Map(), sorted: [] }),
);

/** Called by the indexer for every page it (re)wrote; free until the vocabulary was first read. */
export function noteIndexed(core: Core, docId: number): void {
  const s = state(core);
  if (s.loaded) s.noted.add(docId);
}

/** The vocabulary as it stands after every committed change (the search caught the index up first). */
export function vocabulary(core: Core, index: SearchIndex): { docs: ReadonlyMap<string, number>; sorted: readonly string[] } {
  const s = state(core);
  const version = index.outsideVersion();
  if (!s.loaded || version !== s.version || s.noted.size > REREAD_AFTER) {
    s.docs = new Map();
    for (const row of index.allTerms()) if (ELIGIBLE.test(row.term)) s.docs.set(row.term, row.doc);
    s.sorted = [...s.docs.keys()].sort();
    s.noted.clear();
    s.seen.clear();
    s.loaded = true;
    s.version = version;
  } else if (s.noted.size > 0) {
    const fresh = new Set<string>();
    const ids = [...s.noted];
    s.noted.clear();
    for (let i = 0; i < ids.length; i += 500) {
      for (const page of index.pageTexts(ids.slice(i, i + 500))) {
        for (const [token] of `${page.title} ${page.text}`.matchAll(TOKEN)) {
          const word = token.toLowerCase();
          // CJK runs are indexed a character at a time (segment.ts): no word to correct there.
          if (!s.seen.has(word) && WORD.test(word) && !hasCjk(word)) fresh.add(word);
        }
      }
    }
    const words = [...fresh];
    const added: string[] = [];
    index.termsOf(words).forEach((term, i) => {
      s.seen.add(words[i]);
      if (term === null || s.docs.has(term) || !ELIGIBLE.test(term)) return;
      s.docs.set(term, 1);
      added.push(term);
    });
    if (added.length) s.sorted = merge(s.sorted, added.sort());
  }
  return s;
}

function merge(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) out.push(j >= b.length || (i < a.length && a[i] < b[j]) ? a[i++] : b[j++]);
  return out;
}
