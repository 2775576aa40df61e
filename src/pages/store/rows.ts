/** Page rows: looking them up and writing pages with their versions. Every pages module builds on this one. */
import { eq, getTableColumns, sql } from "drizzle-orm";
import type { PageInSpace } from "../../access/pages";
import type { UserCaller } from "../../identity/caller";
import type { Core } from "../../core";
import { iso } from "../../platform/clock";
import { newId } from "../../platform/crypto";
import { findSpaceById } from "../../spaces/service";
import type { CheckedContent } from "../input";
import { perInstance } from "../../platform/memo";
import { packText } from "../../platform/db/packed-text";
import { updateContent } from "./sql";
import { writePageLinks } from "./links";
import type { SpaceRow } from "../../spaces/tables";
import { pageVersionContributors, pages, pageVersions, type PageMeta, type PageRow } from "../tables";

// Page look-ups are the hottest reads: prepared once per database.
const pageLookup = perInstance((core: Core) =>
  core.db
    .select()
    .from(pages)
    .where(eq(pages.id, sql.placeholder("id")))
    .prepare(),
);
const metaLookup = perInstance((core: Core) => {
  const { contentJson: _document, plainText: _text, ...meta } = getTableColumns(pages);
  return core.db
    .select(meta)
    .from(pages)
    .where(eq(pages.id, sql.placeholder("id")))
    .prepare();
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
  const { lastInsertRowid } = insertRow(core).run({ ...page, fullWidth: page.fullWidth ? 1 : 0 }) as unknown as {
    lastInsertRowid: number | bigint;
  };
  writeVersion(
    core,
    { pageId: page.id, versionNumber: 1, title: row.title, contentJson: row.content.json, comment: row.comment, authorId: caller.user.id },
    null,
  );
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
 * (links.ts). `previousJson`: the document it replaces, null for a new page.
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
export function writeNextVersion(
  core: Core,
  page: PageRow,
  change: { title: string; content: CheckedContent | null; comment: string | null; authorId: string },
): PageRow {
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
  writeVersion(
    core,
    {
      pageId: page.id,
      versionNumber: updated.currentVersion,
      title: updated.title,
      contentJson: updated.contentJson,
      comment: change.comment,
      authorId: change.authorId,
    },
    page.contentJson,
  );
  return updated;
}
