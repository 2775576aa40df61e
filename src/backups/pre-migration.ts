/**
 * The backup taken before migrations change a database that holds data (openCore, given by
 * openInstance). The server is not serving yet and nothing else writes, so the copy is exact
 * and simple: fold the WAL into cairn.db (checkpoint TRUNCATE) and copy the file, page for page,
 * the same format as every other backup (backups/<label>/ with its manifest). Synchronous: it
 * runs before anything else is up.
 *
 * Earlier versions wrote `backups/pre-migration-<time>.db` (VACUUM INTO) instead: those files
 * are left where they are, untouched and not listed (they have no manifest); the person who
 * upgraded may delete them by hand.
 */
import type { Database } from "bun:sqlite";
import { closeSync, openSync, readSync, rmSync, statSync, copyFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { iso } from "../platform/clock";
import { PRIVATE_FILE, type DataDir } from "../platform/datadir";
import { VERSION } from "../version";
import type { BackupManifest } from "./manifest";
import { describeCopy, foldWal, vacuumInto } from "./queries";
import { fsyncPath } from "../platform/durable-file";
import { completePartial, freeLabel, startPartial } from "./store";

/** SHA-256 of a file, read in 1 MiB chunks (the whole database never sits in memory). */
export function sha256OfFile(path: string): string {
  const hasher = new Bun.CryptoHasher("sha256");
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      hasher.update(buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return hasher.digest("hex");
}

/** Answers the backup's label. */
export function takePreMigrationBackup(sqlite: Database, data: DataDir, now: number): string {
  const label = freeLabel(data.backupsDir, now);
  const partial = startPartial(data.backupsDir, label);
  const dest = join(partial, "cairn.db");
  try {
    if (foldWal(sqlite)) {
      copyFileSync(data.dbPath, dest);
    } else {
      // Another process holds the database open (a command beside it): a consistent copy through
      // SQLite then, whose page layout differs (it cannot be a point-in-time base; it has none anyway).
      vacuumInto(sqlite, dest);
    }
    chmodSync(dest, PRIVATE_FILE); // a copy of every page and password hash
    fsyncPath(dest);
    const contents = describeCopy(dest);
    for (const extra of ["cairn.db-wal", "cairn.db-shm"]) rmSync(join(partial, extra), { force: true });
    const manifest: BackupManifest = {
      format: 1,
      label,
      kind: "pre-migration",
      createdAt: iso(now),
      appVersion: VERSION,
      bytes: statSync(dest).size,
      sha256: sha256OfFile(dest),
      ...contents,
      // Taken before this binary's WAL archive begins: restorable as it is, not a point-in-time base.
      wal: null,
      removedAt: null,
      removedReason: null,
    };
    completePartial(data.backupsDir, partial, manifest);
    return label;
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    throw err;
  }
}
