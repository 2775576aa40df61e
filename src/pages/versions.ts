import { requireEditablePage, requireSignedInReader } from "../access/pages";
import { requireUser, type Caller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { notFound } from "../platform/errors";
import { checkContent } from "./input";
import { toPage, type Page } from "./answer";
import { findPage, writeNextVersion } from "./store";
import { contributorRows, versionRow, versionRows } from "./store/versions";
import { importedName } from "../users/imported-name";
import { PAGE_STATUS } from "./tables";

type VersionRow = { versionNumber: number; authorId: string | null; authorName: string | null; importedAuthor: string | null };
export interface Contributor {
  id: string;
  name: string;
}

/**
 * Each version with the people it credits (docs/decisions.md, "Publishing stays an explicit step"):
 * those whose changes in a shared working copy it published, in the order they first changed it;
 * without any recorded, its author. One statement for the page (or one version), whatever the
 * number of versions.
 */
function withContributors<T extends VersionRow>(
  core: Core,
  pageId: string,
  rows: T[],
  versionNumber?: number,
): Array<Omit<T, "importedAuthor"> & { contributors: Contributor[] }> {
  const recorded = contributorRows(core, pageId, versionNumber);
  const byVersion = new Map<number, Contributor[]>();
  for (const r of recorded) {
    const list = byVersion.get(r.versionNumber) ?? [];
    list.push({ id: r.id, name: r.name });
    byVersion.set(r.versionNumber, list);
  }
  return rows.map(({ importedAuthor, ...row }) => {
    // A version an import could not credit to an account is the importer's, named as the archive named it.
    const authorName = importedAuthor !== null ? importedName(importedAuthor) : row.authorName;
    return {
      ...row,
      authorName,
      contributors: byVersion.get(row.versionNumber) ?? (row.authorId ? [{ id: row.authorId, name: authorName ?? "Someone" }] : []),
    };
  });
}

/**
 * GET /api/pages/{id}/versions: newest first, without the documents. History needs an account
 * (401 for anonymous readers of a public space: old versions may hold what was taken out).
 */
export function listVersions(core: Core, caller: Caller, pageId: string) {
  const { page } = requireSignedInReader(core, caller, findPage(core, pageId));
  return withContributors(core, page.id, versionRows(core, page.id));
}

/** GET /api/pages/{id}/versions/{number}: one version with its document. */
export function getVersion(core: Core, caller: Caller, pageId: string, versionNumber: number) {
  const { page } = requireSignedInReader(core, caller, findPage(core, pageId));
  const version = versionRow(core, page.id, versionNumber);
  if (!version) throw notFound("Version not found");
  return withContributors(core, page.id, [version], versionNumber)[0]!;
}

/**
 * POST /api/pages/{id}/versions/{number}/restore: the old title and document become a new
 * version "Restored from version N"; history is never rewritten.
 */
export function restoreVersion(core: Core, caller: Caller, pageId: string, versionNumber: number): Page {
  const user = requireUser(caller);
  // The old document goes through today's schema check (outside the write lock), so a restore
  // can never store a page the editor cannot open.
  const old = getVersion(core, user, pageId, versionNumber);
  const content = checkContent(old.contentJson);
  return core.tx(() => {
    const { page, space } = requireEditablePage(core, user, findPage(core, pageId));
    const updated = writeNextVersion(core, page, {
      title: old.title,
      content,
      comment: `Restored from version ${versionNumber}`,
      authorId: user.user.id,
    });
    if (page.status === PAGE_STATUS.Published) {
      recordEvent(core, {
        type: "page.updated",
        targetType: "page",
        targetId: page.id,
        spaceId: space.id,
        actorId: user.user.id,
        ip: user.ip,
        data: { versionNumber: updated.currentVersion, restoredFrom: versionNumber },
      });
    }
    return toPage(updated, true);
  });
}
