/**
 * The hand-written SQL of backups (docs/architecture.md, "Seams"): what a copy holds, read on
 * the copy's own read-only connection. Each statement tolerates an older schema (a
 * pre-migration copy may predate a table or column): what is missing counts 0.
 */
import { Database } from "bun:sqlite";

export interface BackupCounts {
  pages: number;
  versions: number;
  attachments: number;
  comments: number;
  users: number;
}

/** What a copy holds, read from the copy itself, so it says what a restore would bring back. */
export interface CopyContents {
  schemaVersion: string;
  counts: BackupCounts;
  auditHead: { sequence: number; hash: string } | null;
  files: string[];
}

const COUNTS: Record<keyof BackupCounts, string> = {
  pages: "SELECT count(*) AS n FROM pages",
  versions: "SELECT count(*) AS n FROM page_versions",
  attachments: "SELECT count(*) AS n FROM attachments",
  comments: "SELECT count(*) AS n FROM comments",
  users: "SELECT count(*) AS n FROM users",
};

/** Every table that names a blob of the file store (attachments/blob-refs.ts knows the same set). */
const BLOB_REFERENCES = [
  "SELECT sha256 FROM attachments",
  "SELECT sha256 FROM branding_files",
  "SELECT sha256 FROM space_icons",
  "SELECT avatar_sha256 AS sha256 FROM users WHERE avatar_sha256 IS NOT NULL",
];

function tryAll<T>(db: Database, sql: string): T[] {
  try {
    return db.query<T, []>(sql).all();
  } catch {
    return []; // the table or column does not exist in this copy's schema
  }
}

/** What a copy holds (its counts, audit head, files, schema), read on a read-only connection of its own. */
export function describeCopy(dbPath: string): CopyContents {
  const db = new Database(dbPath, { readonly: true });
  try {
    return describeOpenCopy(db);
  } finally {
    db.close();
  }
}

function describeOpenCopy(db: Database): CopyContents {
  const counts = {} as BackupCounts;
  for (const [key, sql] of Object.entries(COUNTS) as Array<[keyof BackupCounts, string]>)
    counts[key] = tryAll<{ n: number }>(db, sql)[0]?.n ?? 0;
  const head =
    tryAll<{ sequence: number; hash: string }>(db, "SELECT sequence, hash FROM audit_log ORDER BY sequence DESC LIMIT 1")[0] ?? null;
  const files = new Set<string>();
  for (const sql of BLOB_REFERENCES) for (const r of tryAll<{ sha256: string | null }>(db, sql)) if (r.sha256) files.add(r.sha256);
  const tag = tryAll<{ tag: string }>(db, "SELECT tag FROM __cairn_migrations ORDER BY tag DESC LIMIT 1")[0]?.tag ?? "";
  return { schemaVersion: tag, counts, auditHead: head ? { sequence: head.sequence, hash: head.hash } : null, files: [...files].sort() };
}

/** Folds the WAL into the database file; whether it all went (nobody else held it open). */
export function foldWal(sqlite: Database): boolean {
  const folded = sqlite.query<{ busy: number; log: number }, []>("PRAGMA wal_checkpoint(TRUNCATE)").get();
  return !!folded && folded.busy === 0 && folded.log <= 0;
}

/** A consistent copy through SQLite (another page layout than the file's). */
export function vacuumInto(sqlite: Database, dest: string): void {
  sqlite.query("VACUUM INTO ?").run(dest);
}
