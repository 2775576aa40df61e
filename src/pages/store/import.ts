/**
 * Pages written in bulk (an import's slice): the rows of pages and their versions, prepared
 * once and run row by row inside the caller's one transaction (drizzle would build the SQL of
 * every batch again; 10,000 pages and their versions are most of an import's writing), the
 * names imported versions keep for their authors, and each page's links.
 */
import type { Core } from "../../core";
import { perInstance } from "../../platform/memo";
import { pageVersionImportedAuthors, type pages, type pageVersions } from "../tables";
import { writePageLinks } from "./links";

export type NewPage = typeof pages.$inferInsert;
export type NewPageVersion = typeof pageVersions.$inferInsert;
export type ImportedAuthor = { pageId: string; versionNumber: number; name: string };

const statements = perInstance((sqlite: Core["sqlite"]) => ({
  page: sqlite.prepare(
    `INSERT INTO pages (id, space_id, parent_id, title, current_version, position, status, emoji, full_width, created_by_id, ` +
      `updated_by_id, created_at, updated_at, content_json, plain_text)
     VALUES ($id, $spaceId, $parentId, $title, ` +
      `$currentVersion, $position, $status, $emoji, $fullWidth, $createdById, $updatedById, $createdAt, $updatedAt, $contentJson, ` +
      `$plainText)`,
  ),
  version: sqlite.prepare(
    `INSERT INTO page_versions (page_id, version_number, title, change_comment, author_id, created_at, content_json)
     VALUES ($pageId, $versionNumber, $title, $changeComment, $authorId, $createdAt, $contentJson)`,
  ),
}));

/** Rows per drizzle INSERT: well under SQLite's bound-parameter limit. */
const BATCH = 200;

/**
 * Inside the caller's transaction: every page (parents first), then every version, then the
 * imported authors' names, then the links of each page's current version (through links.ts,
 * the one writer of page_links).
 */
export function insertMany(core: Core, pages: NewPage[], versions: NewPageVersion[], importedAuthors: ImportedAuthor[]): void {
  const s = statements(core.sqlite);
  for (const p of pages) {
    s.page.run({
      id: p.id,
      spaceId: p.spaceId,
      parentId: p.parentId ?? null,
      title: p.title,
      currentVersion: p.currentVersion,
      position: p.position ?? 0,
      status: p.status,
      emoji: p.emoji ?? null,
      fullWidth: p.fullWidth ? 1 : 0,
      createdById: p.createdById ?? null,
      updatedById: p.updatedById ?? null,
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
      contentJson: p.contentJson,
      plainText: p.plainText ?? "",
    });
  }
  for (const v of versions) {
    s.version.run({
      pageId: v.pageId,
      versionNumber: v.versionNumber,
      title: v.title,
      changeComment: v.changeComment ?? null,
      authorId: v.authorId ?? null,
      createdAt: v.createdAt,
      contentJson: v.contentJson,
    });
  }
  for (let i = 0; i < importedAuthors.length; i += BATCH)
    core.db
      .insert(pageVersionImportedAuthors)
      .values(importedAuthors.slice(i, i + BATCH))
      .run();
  for (const page of pages) writePageLinks(core, page.id!, page.contentJson, null);
}
