/**
 * The import's hand-written SQL: the bulk inserts of pages and their versions, prepared once
 * and run row by row inside the import's one transaction (drizzle would build the SQL of every
 * batch again; 10,000 pages and their versions are most of an import's writing).
 */
import type { Core } from "../core";
import { perInstance } from "../platform/memo";
import type { ImportPlan } from "./plan";

type PageRow = ImportPlan["pages"][number];
type VersionRow = ImportPlan["versions"][number];

const statements = perInstance((sqlite: Core["sqlite"]) => ({
  page: sqlite.prepare(
    `INSERT INTO pages (id, space_id, parent_id, title, current_version, position, status, emoji, full_width, created_by_id, updated_by_id, created_at, updated_at, content_json, plain_text)
     VALUES ($id, $spaceId, $parentId, $title, $currentVersion, $position, $status, $emoji, $fullWidth, $createdById, $updatedById, $createdAt, $updatedAt, $contentJson, $plainText)`,
  ),
  version: sqlite.prepare(
    `INSERT INTO page_versions (page_id, version_number, title, change_comment, author_id, created_at, content_json)
     VALUES ($pageId, $versionNumber, $title, $changeComment, $authorId, $createdAt, $contentJson)`,
  ),
}));

/** Inside a transaction: every page (parents first), then every version. */
export function insertPagesAndVersions(core: Core, pages: PageRow[], versions: VersionRow[]): void {
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
}
