/** Page rows: reading, shaping and inserting them. Every pages module builds on this one. */
import { eq, getTableColumns, sql } from "drizzle-orm";
import { canEditPage, pageAccess, requireReadablePage, type PageInSpace } from "../access/pages";
import type { Caller, UserCaller } from "../identity/caller";
import type { Core } from "../core";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { AppError, invalid } from "../platform/errors";
import { findSpaceById } from "../spaces/service";
import type { CheckedContent } from "./input";
import { perInstance } from "../platform/memo";
import { packText } from "../platform/db/packed-text";
import { updateContent } from "./queries";
import { writePageLinks } from "./links-store";
import type { SpaceRow } from "../spaces/tables";
import { PAGE_STATUS, pageVersionContributors, pages, pageVersions, type PageMeta, type PageRow } from "./tables";

/** A page as the API answers it (docs/api.md, "Response shapes"); canEdit is the caller's. */
export function toPage(row: PageRow, canEdit: boolean) {
  return {
    id: row.id,
    spaceId: row.spaceId,
    parentPageId: row.parentId,
    title: row.title,
    contentJson: row.contentJson,
    currentVersionNumber: row.currentVersion,
    position: row.position,
    status: row.status,
    emoji: row.emoji,
    fullWidth: row.fullWidth,
    createdById: row.createdById,
    updatedById: row.updatedById,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deletedAt: row.deletedAt,
    canEdit,
  };
}

export type Page = ReturnType<typeof toPage>;

// Page look-ups are the hottest reads: prepared once per database.
const pageLookup = perInstance((core: Core) => core.db.select().from(pages).where(eq(pages.id, sql.placeholder("id"))).prepare());
const metaLookup = perInstance((core: Core) => {
  const { contentJson: _document, plainText: _text, ...meta } = getTableColumns(pages);
  return core.db.select(meta).from(pages).where(eq(pages.id, sql.placeholder("id"))).prepare();
});

/** A page with its space (two prepared lookups: cheaper than drizzle's mapping of a join). */
export function findPage(core: Core, id: string): PageInSpace | undefined {
  const page = pageLookup(core).get({ id });
  const space = page && findSpaceById(core, page.spaceId);
  return page && space ? { page, space } : undefined;
}

/** The same without the document and its text (tens of kilobytes): enough to decide access. */
export function findPageMeta(core: Core, id: string): { page: PageMeta; space: SpaceRow } | undefined {
  const page = metaLookup(core).get({ id });
  const space = page && findSpaceById(core, page.spaceId);
  return page && space ? { page, space } : undefined;
}

/** Re-reads a page and answers it as the caller sees it. */
export function pageFor(core: Core, caller: Caller, id: string): Page {
  const f = findPage(core, id)!;
  return toPage(f.page, canEditPage(core, caller, f.space, f.page));
}

/**
 * A parent named in a request (create, draft, move, copy): visible to the caller (404, like
 * any id), in the target space, published and not in the trash (400 on the field otherwise),
 * and editable by the caller (403): a new child falls under the parent's Edit restrictions, so
 * someone they leave out may not add to that part of the tree.
 */
export function resolveParent(core: Core, caller: Caller, spaceId: string, parentPageId: string, field = "parentPageId"): PageMeta {
  // Without its document: a parent is judged on its row alone (seeding: a read of tens of KB per page).
  const { page: parent, space } = requireReadablePage(core, caller, findPageMeta(core, parentPageId));
  if (parent.spaceId !== spaceId) throw invalid(field, "must be a page in the same space");
  if (parent.deletedAt) throw invalid(field, "is in the trash");
  if (parent.status !== PAGE_STATUS.Published) throw invalid(field, "is a draft; publish it first");
  if (!pageAccess(core, caller, space, parent).edit) throw new AppError("forbidden", { field, detail: `${field}: you may not edit that page, so you cannot add pages under it.` }, "You may not add pages here");
  return parent;
}

export interface NewPageRow {
  spaceId: string;
  parentId: string | null;
  title: string;
  content: CheckedContent;
  status: number;
  position: number;
  emoji?: string | null;
  fullWidth?: boolean;
  comment: string | null;
}

// Every column of a new row, bound by name: the insert is prepared once per database.
const insertRow = perInstance((core: Core) => {
  const { docId: _assigned, ...columns } = getTableColumns(pages);
  return core.db
    .insert(pages)
    .values(Object.fromEntries(Object.keys(columns).map((name) => [name, sql.placeholder(name)])) as never)
    .prepare();
});

/** Inserts a page and its version 1 (inside the caller's transaction); answers the row as written. */
export function insertPage(core: Core, caller: UserCaller, row: NewPageRow): PageRow {
  const now = iso(core.clock.now());
  const page: Omit<PageRow, "docId"> = {
    id: newId(),
    spaceId: row.spaceId,
    parentId: row.parentId,
    title: row.title,
    currentVersion: 1,
    position: row.position,
    status: row.status,
    emoji: row.emoji ?? null,
    fullWidth: row.fullWidth ?? false,
    createdById: caller.user.id,
    updatedById: caller.user.id,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    deletedById: null,
    trashRootId: null,
    contentJson: row.content.json,
    plainText: row.content.text,
  };
  const { lastInsertRowid } = insertRow(core).run({ ...page, fullWidth: page.fullWidth ? 1 : 0 }) as unknown as { lastInsertRowid: number | bigint };
  writeVersion(core, { pageId: page.id, versionNumber: 1, title: row.title, contentJson: row.content.json, comment: row.comment, authorId: caller.user.id }, null);
  return { ...page, docId: Number(lastInsertRowid) };
}

export interface NewVersion {
  pageId: string;
  versionNumber: number;
  title: string;
  contentJson: string;
  comment: string | null;
  authorId: string | null;
}

const insertVersion = perInstance((core: Core) =>
  core.db
    .insert(pageVersions)
    .values({
      pageId: sql.placeholder("pageId"),
      versionNumber: sql.placeholder("versionNumber"),
      title: sql.placeholder("title"),
      contentJson: sql.placeholder("contentJson"),
      changeComment: sql.placeholder("comment"),
      authorId: sql.placeholder("authorId"),
      createdAt: sql.placeholder("createdAt"),
    })
    .prepare(),
);

/**
 * A page's new current version (inside the caller's transaction), and so its links
 * (links-store.ts). `previousJson`: the document it replaces, null for a new page.
 */
export function writeVersion(core: Core, v: NewVersion, previousJson: string | null): void {
  insertVersion(core).run({ ...v, createdAt: iso(core.clock.now()) });
  writePageLinks(core, v.pageId, v.contentJson, previousJson);
}

/** The people whose changes a version published, in the order they first changed it. */
export function writeContributors(core: Core, pageId: string, versionNumber: number, userIds: string[]): void {
  if (userIds.length === 0) return;
  core.db
    .insert(pageVersionContributors)
    .values(userIds.map((userId, position) => ({ pageId, versionNumber, position, userId })))
    .run();
}

/**
 * Version N+1 of a page: its row and its version row (inside the caller's transaction, with
 * prepared statements: this is every edit's path). Answers the row as it now is.
 */
export function writeNextVersion(core: Core, page: PageRow, change: { title: string; content: CheckedContent | null; comment: string | null; authorId: string }): PageRow {
  const updated: PageRow = {
    ...page,
    title: change.title,
    contentJson: change.content?.json ?? page.contentJson,
    plainText: change.content?.text ?? page.plainText,
    currentVersion: page.currentVersion + 1,
    updatedById: change.authorId,
    updatedAt: iso(core.clock.now()),
  };
  // Its placeholders are wrapped as raw SQL (queries.ts), which skips the column's packing: packed here.
  updateContent(core).run({ ...updated, contentJson: packText(updated.contentJson) });
  writeVersion(core, { pageId: page.id, versionNumber: updated.currentVersion, title: updated.title, contentJson: updated.contentJson, comment: change.comment, authorId: change.authorId }, page.contentJson);
  return updated;
}

