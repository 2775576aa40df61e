/**
 * The trash. DELETE puts a page and its live subtree in the trash as one batch (they share
 * trashRootId = the page's id); restore and purge handle a page and the part of its batch
 * below it, never a sub-page that was trashed on its own before.
 */
import { requireChangeablePage, requireEditablePage, visiblePagesFilter } from "../access/pages";
import { requireReadableSpace } from "../access/spaces";
import { requireUser, type Caller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { AppError } from "../platform/errors";
import { findSpaceByIdOrKey } from "../spaces/service";
import { clearHomepage } from "../spaces/store";
import type { SpaceRow } from "../spaces/tables";
import { nextPosition, renumberSiblings } from "./positions";
import { pageFor, type Page } from "./answer";
import { findPage, subtreeIds } from "./store";
import { trashRoots } from "./store/reads";
import { clearTrashed, markTrashed, setParent } from "./store/writes";
import { PAGE_STATUS, type PageRow } from "./tables";

const notInTrash = () => new AppError("conflict", { detail: "Move it to the trash first." }, "This page is not in the trash");

/** DELETE /api/pages/{id}: the page and its live subtree go to the trash together. */
export function trashPage(core: Core, caller: Caller, id: string): void {
  const user = requireUser(caller);
  core.tx(() => {
    const { page, space } = requireEditablePage(core, user, findPage(core, id));
    const ids = subtreeIds(core, page.id, { kind: "live" });
    const now = iso(core.clock.now());
    markTrashed(core, ids, page.id, { userId: user.user.id, at: now });
    renumberSiblings(core, space.id, page.parentId);
    // The space's home page gone to the trash: the space's front shows its recent pages again.
    if (space.homepageId && ids.includes(space.homepageId)) clearHomepage(core, space.id);
    if (page.status === PAGE_STATUS.Published) {
      recordEvent(core, {
        type: "page.trashed",
        targetType: "page",
        targetId: page.id,
        spaceId: space.id,
        actorId: user.user.id,
        ip: user.ip,
        data: { title: page.title, pageIds: ids },
      });
    }
  });
}

/** GET /api/pages/trash: the roots of trashed batches the caller can see (one query), newest first; spaceId is an id or key. */
export function listTrash(core: Core, caller: Caller, spaceRef: string | undefined) {
  const spaceId = spaceRef === undefined ? undefined : requireReadableSpace(core, caller, findSpaceByIdOrKey(core, spaceRef)).id;
  if (caller.kind !== "user") return [];
  const rows = trashRoots(core, spaceId, visiblePagesFilter(core, caller));
  return rows.map(({ page, deletedByName, pageCount }) => ({
    id: page.id,
    spaceId: page.spaceId,
    parentPageId: page.parentId,
    title: page.title,
    emoji: page.emoji,
    status: page.status,
    deletedAt: page.deletedAt!,
    deletedById: page.deletedById,
    deletedByName: deletedByName ?? null,
    pageCount,
  }));
}

/** A trashed page as the caller may restore or purge it: visible, trashed, editable by the caller. */
/** A page in the trash the caller may change, with the part of its batch at and below it. */
export function trashedPage(core: Core, caller: Caller, id: string): { page: PageRow; space: SpaceRow; batch: string[] } {
  const { page, space } = requireChangeablePage(core, caller, findPage(core, id));
  if (!page.deletedAt || !page.trashRootId) throw notInTrash();
  return { page, space, batch: subtreeIds(core, page.id, { kind: "trashBatch", rootId: page.trashRootId }) };
}

/**
 * POST /api/pages/{id}/restore: the page and its batch below it come back; the page goes back
 * under its old parent when that is still a live, published page of the same space, else to
 * the top level, and in either case at the end of its new siblings.
 */
export function restorePage(core: Core, caller: Caller, id: string): Page {
  const user = requireUser(caller);
  return core.tx(() => {
    const { page, batch } = trashedPage(core, user, id);
    const parent = page.parentId ? findPage(core, page.parentId)?.page : undefined;
    const parentId =
      parent && parent.spaceId === page.spaceId && !parent.deletedAt && parent.status === PAGE_STATUS.Published ? parent.id : null;
    clearTrashed(core, batch);
    setParent(core, page.id, parentId, { userId: user.user.id, at: iso(core.clock.now()) }, nextPosition(core, page.spaceId, parentId));
    if (page.status === PAGE_STATUS.Published) {
      recordEvent(core, {
        type: "page.restored",
        targetType: "page",
        targetId: page.id,
        spaceId: page.spaceId,
        actorId: user.user.id,
        ip: user.ip,
        data: { title: page.title, parentPageId: parentId, pageIds: batch },
      });
    }
    return pageFor(core, user, page.id);
  });
}
