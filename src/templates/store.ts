/**
 * The hand-written SQL of templates: the one file a second backend rewrites for this domain
 * (docs/architecture.md, "Seams").
 */
import { sql, type SQL } from "drizzle-orm";
import type { Core } from "../core";
import { templates } from "./tables";

/** ORDER BY term: names as readers sort them, case aside (before id). */
export function byName(): SQL {
  return sql`${templates.name} collate nocase`;
}

/** Rows per INSERT: well under SQLite's bound-parameter limit. */
const BATCH = 200;

/** Templates written in bulk (an import), in batches. */
export function insertTemplates(core: Core, rows: (typeof templates.$inferInsert)[]): void {
  for (let i = 0; i < rows.length; i += BATCH) core.db.insert(templates).values(rows.slice(i, i + BATCH)).run();
}
