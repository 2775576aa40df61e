/**
 * The labels store: the only module that holds the driver for labels and page labels, and
 * their only writer (docs/architecture.md). Titles sort with pages/store/sql.ts byTitle.
 */
import { inArray, sql } from "drizzle-orm";
import type { Core } from "../core";
import { newId } from "../platform/crypto";
import { labels, pageLabels } from "./tables";

/** Gives `toPageId` every label of `fromPageId`, in one statement. */
export function copyPageLabels(core: Core, fromPageId: string, toPageId: string, addedById: string, now: string): void {
  core.db.run(
    sql`insert into ${pageLabels} (page_id, label_id, added_by_id, added_at) select ${toPageId}, label_id, ${addedById}, ${now} from ${pageLabels} where page_id = ${fromPageId}`,
  );
}

/** Rows per INSERT: well under SQLite's bound-parameter limit. */
const BATCH = 200;

/**
 * The ids of these label names, made where missing (an import's labels: the wiki's, found by
 * name), inside the caller's transaction.
 */
export function labelIdsMadeIfMissing(core: Core, names: string[], now: string): Map<string, string> {
  const ids = new Map<string, string>();
  for (let i = 0; i < names.length; i += 500) {
    for (const l of core.db.select({ id: labels.id, name: labels.name }).from(labels).where(inArray(labels.name, names.slice(i, i + 500))).all()) ids.set(l.name, l.id);
  }
  const missing = names.filter((n) => !ids.has(n)).map((name) => ({ id: newId(), name, createdAt: now }));
  for (const l of missing) ids.set(l.name, l.id);
  for (let i = 0; i < missing.length; i += BATCH) core.db.insert(labels).values(missing.slice(i, i + BATCH)).run();
  return ids;
}

/** Labels given to pages in bulk (an import), in batches. */
export function insertPageLabels(core: Core, rows: (typeof pageLabels.$inferInsert)[]): void {
  for (let i = 0; i < rows.length; i += BATCH) core.db.insert(pageLabels).values(rows.slice(i, i + BATCH)).run();
}
