/**
 * Test helpers for the WAL archive: a database driven the way platform/db/transactions.ts drives
 * it (observe after BEGIN IMMEDIATE and after COMMIT), with a clock the test moves.
 */
import type { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../db/open";
import type { WalArchive } from "./types";
import { openWalArchive } from "./wal-archive";

export const abandoned: Database[] = [];

export function scratchDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `cairn-${prefix}-`));
}

export interface ArchivedDb {
  dbPath: string;
  archiveDir: string;
  sqlite: Database;
  archive: WalArchive;
  clock: { now: number };
  /** One write transaction, observed as the core's transactions observe it. */
  write(fn: (db: Database) => void): void;
  /** The core's close sequence: observe, flush, TRUNCATE, close the database, then the archive. */
  close(): void;
  /**
   * What kill -9 leaves: the archive never closed, the log as it is. The connection stays open
   * (closing the last one would fold and delete the log); `abandoned` closes it at the end.
   */
  crash(): void;
}

export function openArchivedDb(dir: string, clock: { now: number }, checkpointFrames = 1000, pollMs = 0): ArchivedDb {
  const dbPath = join(dir, "cairn.db");
  const archiveDir = join(dir, "backups", "wal");
  const sqlite = openSqlite(dbPath);
  const archive = openWalArchive({ sqlite, dbPath, dir: archiveDir, now: () => clock.now, checkpointFrames, pollMs });
  return {
    dbPath,
    archiveDir,
    sqlite,
    archive,
    clock,
    write(fn) {
      sqlite.exec("BEGIN IMMEDIATE");
      archive.observe("locked");
      try {
        fn(sqlite);
        sqlite.exec("COMMIT");
      } catch (err) {
        if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
        throw err;
      } finally {
        archive.observe("released");
      }
    },
    close() {
      archive.checkpoint("truncate");
      sqlite.close();
      archive.close();
    },
    crash() {
      abandoned.push(sqlite);
    },
  };
}

/** sha256 of the rows of `t`, in order: what the data was. */
export function digestOf(db: Database): string {
  const rows = db.query<{ id: number; v: string }, []>("SELECT id, v FROM t ORDER BY id").all();
  return createHash("sha256").update(JSON.stringify(rows)).digest("hex");
}
