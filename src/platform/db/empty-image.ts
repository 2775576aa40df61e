import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/**
 * A new, empty database as the binary carries it: made once at build time (scripts/build.ts,
 * db/empty-database.ts) from the same migrations, gzipped and embedded, so that the first
 * start of an instance writes one file instead of running the baseline's ~750 statements
 * (~15 ms of a ~80 ms cold start's CPU). From source nothing is embedded and the migrations
 * make it as before (platform/db/migrate.ts).
 */
let embedded: string | null = null;

/** The embedded file's path (the binary's entry calls this before main runs); null: none. */
export function embedEmptyDatabase(path: string | null): void {
  embedded = path;
}

/**
 * Writes the embedded empty database at `dbPath` (private, whole or not at all, durably: a
 * temporary name, fsync, rename, the folder fsynced); false when none is embedded. Only the file
 * system is imported here: the binary's entry loads this module before every command.
 */
export function writeEmptyDatabase(dbPath: string): boolean {
  if (!embedded) return false;
  const bytes = Bun.gunzipSync(readFileSync(embedded));
  const tmp = `${dbPath}.tmp`;
  const fd = openSync(tmp, "w", 0o600);
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, dbPath);
  const dir = openSync(dirname(dbPath), "r");
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
  return true;
}
