/** Reads of a page's versions: the list, one version with its document, and the people credited. */
import { and, asc, desc, eq } from "drizzle-orm";
import type { Core } from "../../core";
import { users } from "../../users/tables";
import { pageVersionContributors, pageVersionImportedAuthors, pageVersions } from "../tables";

const versionColumns = {
  versionNumber: pageVersions.versionNumber,
  title: pageVersions.title,
  changeComment: pageVersions.changeComment,
  authorId: pageVersions.authorId,
  authorName: users.displayName,
  createdAt: pageVersions.createdAt,
  importedAuthor: pageVersionImportedAuthors.name,
};

const importedAuthorOf = and(
  eq(pageVersionImportedAuthors.pageId, pageVersions.pageId),
  eq(pageVersionImportedAuthors.versionNumber, pageVersions.versionNumber),
);

/** A page's versions, newest first, without their documents. */
export function versionRows(core: Core, pageId: string) {
  return core.db
    .select(versionColumns)
    .from(pageVersions)
    .leftJoin(users, eq(pageVersions.authorId, users.id))
    .leftJoin(pageVersionImportedAuthors, importedAuthorOf)
    .where(eq(pageVersions.pageId, pageId))
    .orderBy(desc(pageVersions.versionNumber))
    .all();
}

/** One version with its document. */
export function versionRow(core: Core, pageId: string, versionNumber: number) {
  return core.db
    .select({ ...versionColumns, contentJson: pageVersions.contentJson })
    .from(pageVersions)
    .leftJoin(users, eq(pageVersions.authorId, users.id))
    .leftJoin(pageVersionImportedAuthors, importedAuthorOf)
    .where(and(eq(pageVersions.pageId, pageId), eq(pageVersions.versionNumber, versionNumber)))
    .get();
}

/** The contributors recorded for a page's versions (or one version), by version, in the order they first changed it. */
export function contributorRows(core: Core, pageId: string, versionNumber?: number) {
  return core.db
    .select({ versionNumber: pageVersionContributors.versionNumber, id: pageVersionContributors.userId, name: users.displayName })
    .from(pageVersionContributors)
    .innerJoin(users, eq(pageVersionContributors.userId, users.id))
    .where(
      versionNumber === undefined
        ? eq(pageVersionContributors.pageId, pageId)
        : and(eq(pageVersionContributors.pageId, pageId), eq(pageVersionContributors.versionNumber, versionNumber)),
    )
    .orderBy(asc(pageVersionContributors.versionNumber), asc(pageVersionContributors.position))
    .all();
}
