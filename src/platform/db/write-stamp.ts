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

/** Rolled-back transactions per connection (writeTransaction counts them). */
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
 * A cache of texts by key, per database, emptied whenever the write stamp moves and when it
 * would hold more than `maxChars`. Inside a write transaction nothing is kept or trusted: the
 * transaction sees its own uncommitted rows and may still roll back.
 */
export function keptUntilWrite(maxChars: number): (db: Database, key: string, build: () => string) => string {
  const state = perInstance((_db: Database) => ({ stamp: "", chars: 0, texts: new Map<string, string>() }));
  return (db, key, build) => {
    if (db.inTransaction) return build();
    const s = state(db);
    if (writeStamp(db) !== s.stamp) {
      s.texts.clear();
      s.chars = 0;
    }
    let text = s.texts.get(key);
    if (text === undefined) {
      text = build();
      // Building may write to this connection's own temp caches (access/hidden-cache.ts), which
      // moves the stamp without changing any data: the stamp after building is the current one.
      s.stamp = writeStamp(db);
      if (s.chars + text.length > maxChars) {
        s.texts.clear();
        s.chars = 0;
      }
      s.texts.set(key, text);
      s.chars += text.length;
    }
    return text;
  };
}

/**
 * Values worked out from the database, by key, per database, forgotten whenever the write
 * stamp moves (and all at once past `maxEntries`). Trusted inside transactions too: their own
 * writes move the stamp, and so does a rollback.
 */
export function memoUntilWrite<V>(maxEntries: number): (db: Database, key: string, compute: () => V) => V {
  const state = perInstance((_db: Database) => ({ stamp: "", values: new Map<string, V>() }));
  return (db, key, compute) => {
    const s = state(db);
    const stamp = writeStamp(db);
    if (stamp !== s.stamp || s.values.size >= maxEntries) {
      s.values.clear();
      s.stamp = stamp;
    }
    let value = s.values.get(key);
    if (value === undefined) {
      value = compute();
      s.values.set(key, value);
    }
    return value;
  };
}
