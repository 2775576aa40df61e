/**
 * Stamps that move only when some tables change: the answers every request asks for (settings,
 * address blocks, token look-ups) read three or four small tables that almost never change,
 * and the general stamp (change-stamp.ts) moves with every page edit, so each write dropped
 * them and the next request read them again.
 *
 * Each watched table gets TEMP triggers on this connection (insert, delete, update of the
 * columns that matter) that add one to its row in a TEMP counter table. Temporary objects
 * belong to the connection: nothing is written to the database file, a backup or a restore
 * never sees them, and another connection's writes (a `cairn` command, a restore's swap) are
 * covered by data_version, which moves every table stamp. The counters live in the
 * transaction like any row, so a rolled-back write takes its count back; the rollbacks are
 * part of the stamp, so a later write cannot bring an old count (and an old answer) back.
 */
import type { Database } from "bun:sqlite";
import { perInstance } from "../memo";

/** A table to watch; `ignore`: columns whose updates do not count (bookkeeping's, such as a use count). */
export interface WatchedTable {
  table: string;
  ignore?: readonly string[];
}

const NAME = /^[a-z_][a-z0-9_]*$/;

/** Every table some kept answer watches (declared where the answer is defined, at module load). */
const declared = new Map<string, WatchedTable>();

export function declareWatchedTable(watch: WatchedTable): void {
  if (!NAME.test(watch.table) || !(watch.ignore ?? []).every((c) => NAME.test(c))) throw new Error(`not a plain table or column name: ${watch.table}`);
  declared.set(watch.table, watch);
}

interface Counters {
  installed: Set<string>;
  read: ReturnType<Database["query"]>;
  /** The general stamp the counts below were read at, and the counts by table. */
  at: string;
  counts: Map<string, number>;
}

const counters = perInstance(
  (db: Database): Counters => {
    db.exec("CREATE TEMP TABLE IF NOT EXISTS cairn_table_changes (name TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID");
    return { installed: new Set(), read: db.query("SELECT name, n FROM temp.cairn_table_changes"), at: "", counts: new Map() };
  },
);

/** Triggers for the declared tables not yet watched. DDL: only outside a transaction, so a rollback cannot take it back unnoticed. */
function install(db: Database, c: Counters): boolean {
  if (c.installed.size === declared.size) return true;
  if (db.inTransaction) return false;
  for (const watch of declared.values()) {
    if (c.installed.has(watch.table)) continue;
    c.installed.add(watch.table);
    const columns = db.query<{ name: string }, []>(`SELECT name FROM pragma_table_info('${watch.table}')`).all().map((r) => r.name);
    // Not a table of this database (declared by a module it does not use): never counted, so
    // an answer reading it keeps to the general stamp.
    if (columns.length === 0) continue;
    const counted = columns.filter((name) => !(watch.ignore ?? []).includes(name)).map((name) => `"${name}"`);
    const bump = `UPDATE temp.cairn_table_changes SET n = n + 1 WHERE name = '${watch.table}';`;
    db.exec(`INSERT OR IGNORE INTO temp.cairn_table_changes (name, n) VALUES ('${watch.table}', 0)`);
    db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS cairn_watch_${watch.table}_i AFTER INSERT ON main.${watch.table} BEGIN ${bump} END`);
    db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS cairn_watch_${watch.table}_d AFTER DELETE ON main.${watch.table} BEGIN ${bump} END`);
    db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS cairn_watch_${watch.table}_u AFTER UPDATE OF ${counted.join(", ")} ON main.${watch.table} BEGIN ${bump} END`);
  }
  return true;
}

/**
 * The stamp of some declared tables: equal while none of them changed through this connection
 * and nothing was committed by another or rolled back. `general` is the connection's stamp
 * (`count:data_version:rollbacks`); the counters are read again only when it moved. Null
 * when the tables cannot be watched yet (inside a transaction before the first install): the
 * caller then uses the general stamp.
 */
export function tablesStamp(db: Database, tables: readonly string[], general: string): string | null {
  const c = counters(db);
  if (!install(db, c)) return null;
  if (c.at !== general) {
    c.counts = new Map((c.read.all() as Array<{ name: string; n: number }>).map((r) => [r.name, r.n]));
    c.at = general;
  }
  let text = "";
  for (const table of tables) {
    const n = c.counts.get(table);
    if (n === undefined) return null;
    text += `${n}.`;
  }
  // Another connection's commit or a rollback: the general stamp's last two parts.
  return text + general.slice(general.indexOf(":"));
}
