/**
 * The hand-written SQL of the command line: the one file a second backend rewrites for it
 * (docs/architecture.md, "Seams").
 */
import type { Database } from "bun:sqlite";

/** The tags of the migrations the database has applied; null when it has no migrations table (not a Cairn database). */
export function appliedMigrationTags(sqlite: Database): Set<string> | null {
  const table = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__cairn_migrations'").get();
  if (!table) return null;
  return new Set(
    sqlite
      .query<{ tag: string }, []>("SELECT tag FROM __cairn_migrations")
      .all()
      .map((r) => r.tag),
  );
}
