/**
 * The templates store: the only module that holds the driver for templates and their only
 * writer (docs/architecture.md). It reads the driver through `driverOf` (platform/db/driver.ts),
 * not off the core, so the core's type can stop naming it once every store does.
 */
import { asc, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Core } from "../core";
import { driverOf } from "../platform/db/driver";
import { templates, type TemplateRow } from "./tables";

/** ORDER BY term: names as readers sort them, case aside (before id). */
export function byName(): SQL {
  return sql`${templates.name} collate nocase`;
}

/** Rows per INSERT: well under SQLite's bound-parameter limit. */
const BATCH = 200;

/** Templates written in bulk (an import), in batches. */
export function insertTemplates(core: Core, rows: (typeof templates.$inferInsert)[]): void {
  for (let i = 0; i < rows.length; i += BATCH)
    driverOf(core)
      .db.insert(templates)
      .values(rows.slice(i, i + BATCH))
      .run();
}

/** The wiki-wide templates, and the space's own when `spaceId` is given; by name. */
export function templatesFor(core: Core, spaceId: string | undefined): TemplateRow[] {
  return driverOf(core)
    .db.select()
    .from(templates)
    .where(spaceId === undefined ? isNull(templates.spaceId) : or(isNull(templates.spaceId), eq(templates.spaceId, spaceId)))
    .orderBy(byName(), asc(templates.id))
    .all();
}

export function templateById(core: Core, id: string): TemplateRow | undefined {
  return driverOf(core).db.select().from(templates).where(eq(templates.id, id)).get();
}

/** A new template (inside the caller's transaction), answered as written. */
export function insertTemplate(core: Core, row: typeof templates.$inferInsert): TemplateRow {
  return driverOf(core).db.insert(templates).values(row).returning().get();
}

/** Changes a template, answered as it now is. */
export function updateTemplateRow(core: Core, id: string, changes: Partial<TemplateRow>): TemplateRow {
  return driverOf(core).db.update(templates).set(changes).where(eq(templates.id, id)).returning().get()!;
}

export function deleteTemplateRow(core: Core, id: string): void {
  driverOf(core).db.delete(templates).where(eq(templates.id, id)).run();
}
