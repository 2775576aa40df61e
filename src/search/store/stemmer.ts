import { Database } from "bun:sqlite";

/**
 * Words turned into the word index's terms exactly as the index does it, by the index's own
 * tokenizer run on a private in-memory SQLite. The index holds porter stems ("billing" →
 * "bill"), and FTS5's porter has quirks a copy in TypeScript could drift from. A separate
 * connection, because writing even to a temp table of the main one moves its write stamp and
 * would drop every answer kept until the next write (platform/db/change-stamp.ts). About 0.8 µs
 * per word.
 */
const TOKENIZER = "porter unicode61 remove_diacritics 2"; // as search_words in migrations/0003_search.sql

const probe = (() => {
  let statements: ReturnType<typeof open> | null = null;
  function open() {
    const db = new Database(":memory:");
    db.run(`CREATE VIRTUAL TABLE probe USING fts5(t, tokenize='${TOKENIZER}')`);
    db.run("CREATE VIRTUAL TABLE probe_tokens USING fts5vocab(probe, instance)");
    return {
      // The one row, replaced each time (no transaction, no delete: two statements a call).
      replace: db.query<never, [string]>("INSERT OR REPLACE INTO probe (rowid, t) VALUES (1, ?)"),
      tokens: db.query<{ term: string; offset: number }, []>("SELECT term, offset FROM probe_tokens"),
    };
  }
  return () => (statements ??= open());
})();

const ONE_TOKEN = /^\p{L}+$/u;

/**
 * The index term of each word (null for anything but a run of letters, which could be several
 * tokens or none). All in one row: the nth word is the token at offset n.
 */
export function stemEach(words: readonly string[]): (string | null)[] {
  const out: (string | null)[] = words.map(() => null);
  const at: number[] = [];
  const kept: string[] = [];
  words.forEach((w, i) => {
    if (ONE_TOKEN.test(w)) {
      at.push(i);
      kept.push(w);
    }
  });
  if (kept.length === 0) return out;
  const p = probe();
  p.replace.run(kept.join(" "));
  for (const t of p.tokens.all()) out[at[t.offset]] = t.term;
  return out;
}
