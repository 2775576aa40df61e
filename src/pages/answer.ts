/** Pages as the API answers them, and the parent a request names, checked. */
import { canEditPage, pageAccess, requireReadablePage } from "../access/pages";
import type { Caller } from "../identity/caller";
import type { Core } from "../core";
import { AppError, invalid } from "../platform/errors";
import { findPage, findPageMeta } from "./store";
import { PAGE_STATUS, type PageMeta, type PageRow } from "./tables";

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
  if (!pageAccess(core, caller, space, parent).edit)
    throw new AppError(
      "forbidden",
      { field, detail: `${field}: you may not edit that page, so you cannot add pages under it.` },
      "You may not add pages here",
    );
  return parent;
}
