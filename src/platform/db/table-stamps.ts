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
  if (!NAME.test(watch.table) || !(watch.ignore ?? []).every((c) => NAME.test(c)))
    throw new Error(`not a plain table or column name: ${watch.table}`);
  declared.set(watch.table, watch);
}

/** The TEMP table of counts. Made when the connection is opened (open.ts), outside any transaction. */
export const COUNTS_TABLE = "cairn_table_changes";

export function createCountsTable(db: Database): void {
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS ${COUNTS_TABLE} (name TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID`);
}

/** The counts as `name=n,…` in column c, read by change-stamp.ts only when its stamp moved. */
export const COUNTS_SQL = `SELECT group_concat(name || '=' || n, ',') AS c FROM temp.${COUNTS_TABLE}`;

interface Counters {
  installed: Set<string>;
  /** The counts text last parsed, and the counts by table. */
  text: string | null;
  counts: Map<string, number>;
  /** The last stamp answered per list of tables (each kept answer asks with its own list). */
  answered: WeakMap<readonly string[], { at: string; text: string | null }>;
}

const counters = perInstance(
  (_db: Database): Counters => ({ installed: new Set(), text: null, counts: new Map(), answered: new WeakMap() }),
);

/** Some declared table has no triggers yet on this connection (watchDeclaredTables makes them). */
export function tablesUnwatched(db: Database): boolean {
  return counters(db).installed.size !== declared.size;
}

/**
 * Triggers for the declared tables not yet watched: true when it installed some (the counts
 * read before are then out of date). DDL only outside a transaction, so that a rollback cannot
 * take it back unnoticed; until then the tables are not counted and answers follow the general
 * stamp.
 */
export function watchDeclaredTables(db: Database): boolean {
  const c = counters(db);
  if (c.installed.size === declared.size || db.inTransaction) return false;
  createCountsTable(db);
  for (const watch of declared.values()) {
    if (c.installed.has(watch.table)) continue;
    c.installed.add(watch.table);
    const columns = db
      .query<{ name: string }, []>(`SELECT name FROM pragma_table_info('${watch.table}')`)
      .all()
      .map((r) => r.name);
    // Not a table of this database (declared by a module it does not use): never counted, so
    // an answer reading it keeps to the general stamp.
    if (columns.length === 0) continue;
    const counted = columns.filter((name) => !(watch.ignore ?? []).includes(name)).map((name) => `"${name}"`);
    const bump = `UPDATE temp.${COUNTS_TABLE} SET n = n + 1 WHERE name = '${watch.table}';`;
    db.exec(`INSERT OR IGNORE INTO temp.${COUNTS_TABLE} (name, n) VALUES ('${watch.table}', 0)`);
    db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS cairn_watch_${watch.table}_i AFTER INSERT ON main.${watch.table} BEGIN ${bump} END`);
    db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS cairn_watch_${watch.table}_d AFTER DELETE ON main.${watch.table} BEGIN ${bump} END`);
    db.exec(
      `CREATE TEMP TRIGGER IF NOT EXISTS cairn_watch_${watch.table}_u AFTER UPDATE OF ` +
        `${counted.join(", ")} ON main.${watch.table} BEGIN ${bump} END`,
    );
  }
  return true;
}

/**
 * The stamp of some declared tables: equal while none of them changed through this connection
 * and nothing was committed by another or rolled back. `general` is the connection's stamp
 * (`count:data_version:rollbacks`) and `countsText` the counts read with it (null: none, as on
 * a connection whose counts table could not be made). Null when the tables are not watched
 * (yet, watchDeclaredTables): the caller then uses the general stamp.
 */
export function tablesStamp(db: Database, tables: readonly string[], general: string, countsText: string | null): string | null {
  const c = counters(db);
  const last = c.answered.get(tables);
  if (last?.at === general) return last.text;
  if (countsText !== c.text) {
    c.counts = new Map(
      (countsText ?? "")
        .split(",")
        .filter(Boolean)
        .map((pair) => [pair.slice(0, pair.indexOf("=")), Number(pair.slice(pair.indexOf("=") + 1))]),
    );
    c.text = countsText;
  }
  let text: string | null = "";
  for (const table of tables) {
    const n = c.counts.get(table);
    if (n === undefined) {
      text = null;
      break;
    }
    text += `${n}.`;
  }
  // Another connection's commit or a rollback: the general stamp's last two parts.
  if (text !== null) text += general.slice(general.indexOf(":"));
  c.answered.set(tables, { at: general, text });
  return text;
}
