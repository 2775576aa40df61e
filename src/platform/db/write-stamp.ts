/**
 * Answers worked out from the database and kept until the next write. Reads far outnumber
 * writes in a wiki, so the costly ones (a big space's tree, a search) are kept as their JSON
 * text and answered again while nothing has changed.
 */
import type { Database } from "bun:sqlite";
import { perInstance } from "../memo";

const stampQuery = perInstance((db: Database) => db.query<{ t: number; v: number }, []>("SELECT total_changes() AS t, data_version AS v FROM pragma_data_version"));

/**
 * Where this connection's data stands: SQLite's total_changes() (every row inserted, updated or
 * deleted through this connection, by any code path, triggers included) with PRAGMA
 * data_version (commits by other connections). Any write anywhere changes it, so a value worked
 * out from the database and kept with its stamp is current exactly while the stamp is equal.
 */
export function writeStamp(db: Database): string {
  const s = stampQuery(db).get()!;
  return `${s.t}:${s.v}`;
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
