/**
 * Answers worked out from the database and kept until the data they read changes (the
 * ChangeStamp moves). Reads far outnumber writes in a wiki, so the costly ones (a big space's
 * tree, a search) are kept as their JSON text and answered again while nothing has changed.
 * Each cache counts its hits and misses (keptAnswerStats) so the bench can say how often
 * they answer under mixed traffic.
 */
import { perInstance } from "../memo";
import type { ChangeStamp } from "./change-stamp";
import { declareWatchedTable, type WatchedTable } from "./table-stamps";

export interface KeptStats {
  hits: number;
  misses: number;
  /** Times the whole cache was emptied because the stamp moved. */
  dropped: number;
}

const stats = new Map<string, KeptStats>();

/** Hits and misses of every kept-answer cache since the process started, by name. */
export function keptAnswerStats(): Record<string, KeptStats> {
  return Object.fromEntries([...stats].map(([name, s]) => [name, { ...s }]));
}

export interface KeptOptions {
  /**
   * Every table the answer reads, when they are few and seldom written: the answer is then
   * kept until one of them changes (table-stamps.ts), not until any write. Name them all: a
   * table left out is a change the answer would not see.
   */
  tables?: readonly WatchedTable[];
}

/**
 * Values by key, per stamp (one per database), forgotten whenever the stamp moves, and all at
 * once when they would weigh more than `limit` (each weighs 1 unless `weigh` says otherwise,
 * e.g. a text's length). Trusted inside transactions too: their own writes move the stamp, and
 * so does a rollback.
 */
export function keptUntilWrite<V>(
  name: string,
  limit: number,
  weigh: (value: V) => number = () => 1,
  opts: KeptOptions = {},
): (stamp: ChangeStamp, key: string, compute: () => V) => V {
  const counts: KeptStats = { hits: 0, misses: 0, dropped: 0 };
  stats.set(name, counts);
  for (const watch of opts.tables ?? []) declareWatchedTable(watch);
  const tables = opts.tables?.map((watch) => watch.table);
  const stampOf = tables ? (s: ChangeStamp) => s.ofTables(tables) : (s: ChangeStamp) => s.current();
  const state = perInstance((_stamp: ChangeStamp) => ({ stamp: "", weight: 0, values: new Map<string, V>() }));
  const forget = (s: { weight: number; values: Map<string, V> }) => {
    if (s.values.size > 0) counts.dropped++;
    s.values.clear();
    s.weight = 0;
  };
  return (changeStamp, key, compute) => {
    const s = state(changeStamp);
    const stamp = stampOf(changeStamp);
    if (stamp !== s.stamp) {
      forget(s);
      s.stamp = stamp;
    }
    let value = s.values.get(key);
    if (value !== undefined) {
      counts.hits++;
      return value;
    }
    counts.misses++;
    value = compute();
    // Working it out may have written (the search index catching up): then only this value is
    // known to be current.
    const after = stampOf(changeStamp);
    if (after !== s.stamp) {
      forget(s);
      s.stamp = after;
    }
    const weight = weigh(value);
    if (s.weight + weight > limit) forget(s);
    s.values.set(key, value);
    s.weight += weight;
    return value;
  };
}

/** keptUntilWrite for JSON texts, bounded by their total length. */
export const keptTextsUntilWrite = (name: string, maxChars: number) => keptUntilWrite<string>(name, maxChars, (text) => text.length);

/**
 * A text answer kept with its UTF-8 bytes, for answers sent again and again: a Response made
 * from a string encodes it on every send (a 120 KB tree with one accented title, so held in
 * UTF-16, cost the server about 40 µs each time), one made from the Blob sends its bytes as
 * they are. Weighed by both.
 */
export interface KeptBody {
  text: string;
  body: Blob;
  /** Its gzipped bytes, made on the first ask (gzippedBody); null when not worth sending. */
  gzip?: Blob | null;
}

export const keptBody = (text: string): KeptBody => ({ text, body: new Blob([text]) });

/**
 * Below this, gzip saves less than it costs both ends. The large kept answers (a 1,000-page
 * tree is about 120 KB of JSON, 31 KB gzipped) are another matter: at that size the bytes, not
 * the server's work, decide how many answers a second a client gets (docs/decisions.md).
 */
export const GZIP_MIN_BYTES = 16 * 1024;

/**
 * The kept answer's bytes gzipped, made once (level 4: about 1.3 ms for 120 KB, within a few
 * per cent of the smallest) and kept with it until the answer itself goes. Not weighed in the
 * cache's bound: at most the size of the bytes it stands beside, and only for answers asked
 * for by a client that takes gzip. Null for a small answer, or when gzip would not be smaller.
 */
function gzippedBody(kept: KeptBody): Blob | null {
  if (kept.gzip !== undefined) return kept.gzip;
  if (kept.body.size < GZIP_MIN_BYTES) return (kept.gzip = null);
  const bytes = Bun.gzipSync(Buffer.from(kept.text, "utf8"), { level: 4 });
  return (kept.gzip = bytes.length < kept.body.size ? new Blob([bytes]) : null);
}

export const keptBodiesUntilWrite = (name: string, maxBytes: number) =>
  keptUntilWrite<KeptBody>(name, maxBytes, (kept) => kept.body.size + kept.text.length);

/** "gzip" in Accept-Encoding, unless refused with a zero weight ("gzip;q=0"). */
const TAKES_GZIP = /\bgzip\b(?!\s*;\s*q\s*=\s*0(?:\.0*)?\s*(?:,|$))/i;

/**
 * The bytes to send for a kept answer: gzipped when the client takes gzip (every browser does)
 * and the answer is large enough to gain, as they are otherwise.
 */
export function keptBodyFor(kept: KeptBody, acceptEncoding: string | null): { body: Blob; gzipped: boolean } {
  const gzip = kept.body.size >= GZIP_MIN_BYTES && TAKES_GZIP.test(acceptEncoding ?? "") ? gzippedBody(kept) : null;
  return gzip ? { body: gzip, gzipped: true } : { body: kept.body, gzipped: false };
}
