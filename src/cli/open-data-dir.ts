/**
 * The core of an existing data directory, for commands that change it (cairn reset-password)
 * whether its server is stopped or running.
 *
 * Not openCore: preparing a data directory for a start creates what is missing (a new
 * directory and database for a mistyped --data) and empties tmp/, where a running server's
 * uploads are being written; and migrating under a running server of another version would
 * change its schema beneath it. So this opens only what is there, as it is: a missing
 * directory or database, or a schema of another version, is one line and nothing is touched.
 *
 * Beside a running server: SQLite in WAL mode lets both processes write; BEGIN IMMEDIATE
 * serialises the writes (busy_timeout waits out the server's group commit), so the audit chain
 * and the outbox's order hold; and the server's caches notice the commit (change-stamp.ts reads
 * PRAGMA data_version).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Database } from "bun:sqlite";
import { installAuditLog } from "../audit/service";
import { assembleCore, type Core } from "../core";
import { migrations } from "../db/migrations.gen";
import { systemClock } from "../platform/clock";
import type { DataDir } from "../platform/datadir";
import { openSqlite } from "../platform/db/open";
import type { Logger } from "../platform/log";
import { VERSION } from "../version";
import { CommandError } from "./command-error";
import { appliedMigrationTags } from "./queries";

export function openExistingDataDir(dir: string, log: Logger): Core {
  const root = resolve(dir);
  const stat = statSync(root, { throwIfNoEntry: false });
  if (!stat)
    throw new CommandError(
      `There is no data directory at ${root}; nothing was created. Give the server's with --data DIR (or CAIRN_DATA).`,
    );
  if (!stat.isDirectory())
    throw new CommandError(`${root} is a file, not a data directory. Give the server's with --data DIR (or CAIRN_DATA).`);
  const dbPath = join(root, "cairn.db");
  if (!existsSync(dbPath))
    throw new CommandError(`${root} holds no Cairn database (cairn.db): is it the server's data directory? Nothing was created.`);
  const sqlite = openSqlite(dbPath);
  try {
    checkSchema(sqlite, dbPath);
  } catch (err) {
    sqlite.close();
    throw err;
  }
  const data: DataDir = {
    root,
    dbPath,
    filesDir: join(root, "files"),
    backupsDir: join(root, "backups"),
    tmpDir: join(root, "tmp"),
    secretKey: readSecretKey(root),
    exposed: [],
  };
  return assemble(sqlite, data, log);
}

/** The schema must be exactly this binary's: neither older (not migrated yet) nor newer. */
function checkSchema(sqlite: Database, dbPath: string): void {
  const done = appliedMigrationTags(sqlite);
  if (!done) throw new CommandError(`${dbPath} is not a Cairn database (it has no migrations table). Nothing was changed.`);
  const known = new Set(migrations.map((m) => m.tag));
  if ([...done].some((t) => !known.has(t)))
    throw new CommandError(
      `This database was written by a newer version of Cairn than ${VERSION}: run the ` +
        `command with that version's binary. Nothing was changed.`,
    );
  if ([...known].some((t) => !done.has(t)))
    throw new CommandError(
      `This database has not been upgraded to Cairn ${VERSION} yet: start \`cairn serve\` with this binary ` +
        `once (it upgrades the database), then run the command again. Nothing was changed.`,
    );
}

/** The key as the server keeps it; empty if it is missing (no command signs anything yet, and creating it is the server's job). */
function readSecretKey(root: string): Uint8Array {
  const hex = existsSync(join(root, "secret.key")) ? readFileSync(join(root, "secret.key"), "utf8").trim() : "";
  return /^[0-9a-f]{64}$/.test(hex) ? Uint8Array.from(Buffer.from(hex, "hex")) : new Uint8Array(0);
}

/**
 * A core like openCore's, committing each transaction at once (no group commit in a short
 * command), with the audit log installed so that every event recorded gets its entry. The
 * other recorders (webhooks, notifications) act on page and space events only, and their timers
 * belong to the server.
 */
function assemble(sqlite: Database, data: DataDir, log: Logger): Core {
  const core = assembleCore({
    config: { dataDir: data.root, host: "127.0.0.1", port: 0, baseUrl: null, outboundAllow: [], trustedProxies: [] },
    data,
    sqlite,
    clock: systemClock,
    log,
    groupCommits: false,
    // A running server folds the WAL itself, and a stopped one's is folded by SQLite when this,
    // the last connection, closes.
    checkpointAtClose: false,
  });
  installAuditLog(core);
  return core;
}
