/**
 * Answers worked out from the database and kept until the next write. Reads far outnumber
 * writes in a wiki, so the costly ones (a big space's tree, a search) are kept as their JSON
 * text and answered again while nothing has changed.
 */
import type { Database } from "bun:sqlite";
import { perInstance } from "../memo";

const changesQuery = perInstance((db: Database) => db.query<{ t: number }, []>("SELECT total_changes() AS t"));
const versionQuery = perInstance((db: Database) => db.query<{ data_version: number }, []>("PRAGMA data_version"));
const versionRead = perInstance((_db: Database) => ({ value: 0, fresh: false }));

/**
 * PRAGMA data_version, read at most once per synchronous run (it costs 2 µs, and one request
 * asks several caches): a commit by another process lands between two statements, and within
 * one run of our code it is seen at the next run, microseconds later, as a changed stamp.
 */
function dataVersion(db: Database): number {
  const read = versionRead(db);
  if (!read.fresh) {
    read.value = versionQuery(db).get()!.data_version;
    read.fresh = true;
    queueMicrotask(() => (read.fresh = false));
  }
  return read.value;
}

/** Rolled-back transactions per connection (the transactions module counts them). */
const rollbacks = new WeakMap<Database, number>();

/** A rollback undoes rows without moving total_changes(): it must move the stamp itself. */
export function noteRollback(db: Database): void {
  rollbacks.set(db, (rollbacks.get(db) ?? 0) + 1);
}

/**
 * Where this connection's data stands: SQLite's total_changes() (every row inserted, updated or
 * deleted through this connection, by any code path, triggers included), PRAGMA data_version
 * (commits by other connections) and the rollbacks. Any change anywhere moves it, so a value
 * worked out from the database and kept with its stamp is current exactly while the stamp is
 * equal, inside a transaction too (its own writes move total_changes; undoing them, the count).
 */
export function writeStamp(db: Database): string {
  return `${changesQuery(db).get()!.t}:${dataVersion(db)}:${rollbacks.get(db) ?? 0}`;
}

/**
 * Values worked out from the database, by key, per database, forgotten whenever the write
 * stamp moves, and all at once when they would weigh more than `limit` (each weighs 1 unless
 * `weigh` says otherwise, e.g. a text's length). Trusted inside transactions too: their own
 * writes move the stamp, and so does a rollback.
 */
export function keptUntilWrite<V>(limit: number, weigh: (value: V) => number = () => 1): (db: Database, key: string, compute: () => V) => V {
  const state = perInstance((_db: Database) => ({ stamp: "", weight: 0, values: new Map<string, V>() }));
  const forget = (s: { weight: number; values: Map<string, V> }) => {
    s.values.clear();
    s.weight = 0;
  };
  return (db, key, compute) => {
    const s = state(db);
    const stamp = writeStamp(db);
    if (stamp !== s.stamp) {
      forget(s);
      s.stamp = stamp;
    }
    let value = s.values.get(key);
    if (value === undefined) {
      value = compute();
      // Working it out may have written (a temp cache of access/hidden-cache.ts, the search
      // index catching up): then only this value is known to be current.
      const after = writeStamp(db);
      if (after !== s.stamp) {
        forget(s);
        s.stamp = after;
      }
      const weight = weigh(value);
      if (s.weight + weight > limit) forget(s);
      s.values.set(key, value);
      s.weight += weight;
    }
    return value;
  };
}

/** keptUntilWrite for JSON texts, bounded by their total length. */
export const keptTextsUntilWrite = (maxChars: number) => keptUntilWrite<string>(maxChars, (text) => text.length);
