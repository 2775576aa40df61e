/**
 * The labels store: the only module that holds the driver for labels and page labels, and
 * their only writer (docs/architecture.md). Titles sort with pages/store/sql.ts byTitle.
 */
import { and, asc, count, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { Core } from "../core";
import { newId } from "../platform/crypto";
import { byTitle } from "../pages/store";
import { PAGE_STATUS, pages } from "../pages/tables";
import { labels, pageLabels } from "./tables";

/** Gives `toPageId` every label of `fromPageId`, in one statement. */
export function copyPageLabels(core: Core, fromPageId: string, toPageId: string, addedById: string, now: string): void {
  core.db.run(
    sql`insert into ${pageLabels} (page_id, label_id, added_by_id, added_at)
      select ${toPageId}, label_id, ${addedById}, ${now} from ${pageLabels} where page_id = ${fromPageId}`,
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
    for (const l of core.db
      .select({ id: labels.id, name: labels.name })
      .from(labels)
      .where(inArray(labels.name, names.slice(i, i + 500)))
      .all())
      ids.set(l.name, l.id);
  }
  const missing = names.filter((n) => !ids.has(n)).map((name) => ({ id: newId(), name, createdAt: now }));
  for (const l of missing) ids.set(l.name, l.id);
  for (let i = 0; i < missing.length; i += BATCH)
    core.db
      .insert(labels)
      .values(missing.slice(i, i + BATCH))
      .run();
  return ids;
}

/** Labels given to pages in bulk (an import), in batches. */
export function insertPageLabels(core: Core, rows: (typeof pageLabels.$inferInsert)[]): void {
  for (let i = 0; i < rows.length; i += BATCH)
    core.db
      .insert(pageLabels)
      .values(rows.slice(i, i + BATCH))
      .run();
}

/** Pages that count in label lists: published, live, within `visible` (the caller's filter). */
const listedPages = (visible: SQL) => and(eq(pages.status, PAGE_STATUS.Published), isNull(pages.deletedAt), visible);

/** Each label on listed pages, per space, with how many pages carry it there; by name. */
export function labelCountsBySpace(core: Core, visible: SQL) {
  return (
    core.db
      .select({ id: labels.id, name: labels.name, spaceId: pages.spaceId, n: count() })
      .from(pageLabels)
      .innerJoin(labels, eq(labels.id, pageLabels.labelId))
      .innerJoin(pages, eq(pages.id, pageLabels.pageId))
      .where(listedPages(visible))
      .groupBy(labels.id, pages.spaceId)
      // SQLite's binary order is code point order, as in a page's own list; a JS sort would
      // compare UTF-16 units and put 𠀀 (U+20000) before 﨎 (U+FA0E).
      .orderBy(asc(labels.name))
      .all()
  );
}

/** The listed pages carrying the label `name`, by title. */
export function pagesWithLabel(core: Core, name: string, visible: SQL) {
  return core.db
    .select({ id: pages.id, spaceId: pages.spaceId, title: pages.title, emoji: pages.emoji, updatedAt: pages.updatedAt })
    .from(pageLabels)
    .innerJoin(labels, eq(labels.id, pageLabels.labelId))
    .innerJoin(pages, eq(pages.id, pageLabels.pageId))
    .where(and(eq(labels.name, name), listedPages(visible)))
    .orderBy(byTitle(), asc(pages.id))
    .all();
}

/** A page's labels by name. */
export function labelsOfPage(core: Core, pageId: string): { id: string; name: string }[] {
  return core.db
    .select({ id: labels.id, name: labels.name })
    .from(pageLabels)
    .innerJoin(labels, eq(labels.id, pageLabels.labelId))
    .where(eq(pageLabels.pageId, pageId))
    .orderBy(asc(labels.name))
    .all();
}

/** The label `name` (made if new) on the page; `added` false when the page had it already. */
export function addPageLabel(
  core: Core,
  pageId: string,
  name: string,
  by: { userId: string; at: string },
): { label: { id: string; name: string }; added: boolean } {
  core.db.insert(labels).values({ id: newId(), name, createdAt: by.at }).onConflictDoNothing().run();
  const label = core.db.select({ id: labels.id, name: labels.name }).from(labels).where(eq(labels.name, name)).get()!;
  const inserted = core.db
    .insert(pageLabels)
    .values({ pageId, labelId: label.id, addedById: by.userId, addedAt: by.at })
    .onConflictDoNothing()
    .returning({ labelId: pageLabels.labelId })
    .get();
  return { label, added: Boolean(inserted) };
}

/** Takes the label `name` off the page; answers the label, or undefined when the page did not have it. */
export function removePageLabel(core: Core, pageId: string, name: string): { id: string; name: string } | undefined {
  const label = core.db.select({ id: labels.id, name: labels.name }).from(labels).where(eq(labels.name, name)).get();
  const gone =
    label &&
    core.db
      .delete(pageLabels)
      .where(and(eq(pageLabels.pageId, pageId), eq(pageLabels.labelId, label.id)))
      .returning({ labelId: pageLabels.labelId })
      .get();
  return label && gone ? label : undefined;
}
